// The dashboard's words, filters, figures and download, without zod: the dashboard screen paints without it
// (decision 0006). The answer's schema is in schemas.ts.
import { csvFile } from '../api/csv';
import { completionRate, dashboardStatus } from '../health-checks/rules';
import type { LoopDashboardItem } from '../loops/contract';
import type { DashboardItem, DashboardStats } from './schemas';

export const DASHBOARD_MESSAGES = {
  noItems: 'No Items Found',
  noActive: 'No Active Items',
  noCompleted: 'No Completed Items',
  noGlobal: 'No global templates available',
} as const;

/** The dashboard's filters (its 'All Items', 'Loops' and 'Health Checks' buttons). */
export const DASHBOARD_FILTERS = ['all', 'loops', 'health-checks'] as const;
export type DashboardFilter = (typeof DASHBOARD_FILTERS)[number];

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
