import { z } from 'zod';
import { csvFile } from '../api/csv';
import { completionRate, dashboardStatus } from '../health-checks/rules';
import { loopDashboardItemSchema, type LoopDashboardItem } from '../loops/contract';
import { templateSummarySchema } from '../templates/schemas';

export const DASHBOARD_MESSAGES = {
  noItems: 'No Items Found',
  noActive: 'No Active Items',
  noCompleted: 'No Completed Items',
  noGlobal: 'No global templates available',
} as const;

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

export const dashboardStatsSchema = z.object({
  activeSurveys: z.number(),
  totalResponses: z.number(),
  avgCompletionRate: z.number(),
  activeCount: z.number(),
  completedCount: z.number(),
});
export type DashboardStats = z.infer<typeof dashboardStatsSchema>;

/**
 * The stat cards and tab counts over a list of items (PRODUCT-DECISIONS 9): active items (collecting or voting),
 * completed ones, completed responses over all, and the mean of the items' completion rates, rounded (0 for none).
 */
export function dashboardStats(
  items: readonly { status: string; responses: number; totalParticipants: number }[],
): DashboardStats {
  let active = 0;
  let completed = 0;
  let responses = 0;
  let rates = 0;
  for (const item of items) {
    if (dashboardStatus(item.status) === 'completed') completed += 1;
    else active += 1;
    responses += item.responses;
    rates += completionRate(item.responses, item.totalParticipants);
  }
  return {
    activeSurveys: active,
    totalResponses: responses,
    avgCompletionRate: items.length === 0 ? 0 : Math.round(rates / items.length),
    activeCount: active,
    completedCount: completed,
  };
}

/** The dashboard's filters (its 'All Items', 'Loops' and 'Health Checks' buttons). */
export const DASHBOARD_FILTERS = ['all', 'loops', 'health-checks'] as const;
export type DashboardFilter = (typeof DASHBOARD_FILTERS)[number];

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
  globalTemplates: z.array(templateSummarySchema),
});
export type DashboardResponse = z.infer<typeof dashboardResponseSchema>;

/** The dashboard download: one row per listed item (health check or loop) with its figures. */
export function dashboardCsv(
  items: (DashboardItem | LoopDashboardItem)[],
  statusLabel: (status: string) => string,
): string {
  const header = [
    'Title',
    'Type',
    'Status',
    'Created',
    'Responses',
    'Participants',
    'Completion Rate (%)',
    'Overdue',
    'Join Link',
  ];
  const rows = items.map((item) => [
    item.title,
    item.kind === 'loop' ? 'Loop' : 'Health Check',
    statusLabel(item.status),
    item.createdAt.slice(0, 10),
    item.responses,
    item.totalParticipants,
    item.completionRate,
    item.overdue ? 'yes' : 'no',
    // A loop has no join link: its rounds are e-mailed to each member.
    item.kind === 'loop' ? '' : item.joinUrl,
  ]);
  return csvFile([header, ...rows]);
}
