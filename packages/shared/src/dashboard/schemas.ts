import { z } from 'zod';
import { loopDashboardItemSchema } from '../loops/contract';
import { templateSummarySchema } from '../templates/schemas';
import { DASHBOARD_FILTERS } from './rules';

export const dashboardItemSchema = z.object({
  id: z.string(),
  kind: z.literal('health-check'),
  title: z.string(),
  description: z.string().nullable(),
  status: z.string(),
  phase: z.string(),
  createdAt: z.string(),
  phaseStartedAt: z.string(),
  completedAt: z.string().nullable(),
  responses: z.number(),
  totalParticipants: z.number(),
  completionRate: z.number(),
  overdue: z.boolean(),
  joinUrl: z.string(),
});
export type DashboardItem = z.infer<typeof dashboardItemSchema>;

/** An action item to follow up (issue 33 item 6, action-items/nudges.ts): why, and for how many days. */
export const actionToFollowUpSchema = z.object({
  id: z.string(),
  description: z.string(),
  healthCheckId: z.string(),
  checkTitle: z.string(),
  ownerName: z.string().nullable(),
  dueDate: z.string().nullable(),
  completedAt: z.string().nullable(),
  reason: z.enum(['overdue', 'no-follow-up']),
  days: z.number().int(),
});
export type ActionToFollowUp = z.infer<typeof actionToFollowUpSchema>;

export const dashboardStatsSchema = z.object({
  activeSurveys: z.number(),
  totalResponses: z.number(),
  avgCompletionRate: z.number(),
  activeCount: z.number(),
  completedCount: z.number(),
});
export type DashboardStats = z.infer<typeof dashboardStatsSchema>;

export const dashboardResponseSchema = z.object({
  workspace: z.object({ id: z.string(), name: z.string() }).nullable(),
  /** The stat cards and tab counts of all items (health checks and loops). */
  stats: dashboardStatsSchema,
  /** The stat cards and tab counts under each filter. */
  statsByFilter: z.record(z.enum(DASHBOARD_FILTERS), dashboardStatsSchema),
  /** The workspace's health checks, newest first. */
  items: z.array(dashboardItemSchema),
  /** The workspace's loops, newest first (the 'Loops' filter). */
  loops: z.array(loopDashboardItemSchema),
  /** 'Actions to follow up': overdue by 7 days, or done 30 days ago and never asked about, oldest first. */
  actionsToFollowUp: z.array(actionToFollowUpSchema),
  globalTemplates: z.array(templateSummarySchema),
});
export type DashboardResponse = z.infer<typeof dashboardResponseSchema>;
