import { z } from 'zod';
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

export const dashboardResponseSchema = z.object({
  workspace: z.object({ id: z.string(), name: z.string() }).nullable(),
  stats: dashboardStatsSchema,
  items: z.array(dashboardItemSchema),
  globalTemplates: z.array(templateSummarySchema),
});
export type DashboardResponse = z.infer<typeof dashboardResponseSchema>;

const csvCell = (value: string | number | boolean | null) => {
  const text = value === null ? '' : String(value);
  // Quote when needed; a leading formula character is neutralised so spreadsheets do not run it.
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** The dashboard download: one row per listed item with its figures. */
export function dashboardCsv(items: DashboardItem[], statusLabel: (status: string) => string): string {
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
    'Health Check',
    statusLabel(item.status),
    item.createdAt.slice(0, 10),
    item.responses,
    item.totalParticipants,
    item.completionRate,
    item.overdue ? 'yes' : 'no',
    item.joinUrl,
  ]);
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
