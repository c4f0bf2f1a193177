// The dashboard's words, filters, figures and download, without zod: the dashboard screen paints without it
// (decision 0006). The answer's schema is in schemas.ts.
import { csvFile } from '../api/csv';
import { completionRate, dashboardStatus } from '../health-checks/rules';
import type { LoopDashboardItem } from '../loops/contract';
import type { DashboardItem, DashboardStats } from './schemas';

/** The dashboard's words: catalogue keys (packages/shared/messages/<language>/dashboard.json). */
export const DASHBOARD_MESSAGES = {
  noItems: 'dashboard.noItems',
  noActive: 'dashboard.noActive',
  noCompleted: 'dashboard.noCompleted',
  noGlobal: 'templates.noGlobal',
} as const;

/** The download's header, its type column and its overdue column, in the downloader's language. */
const CSV_WORDS = {
  header: [
    'dashboard.csvTitle',
    'dashboard.csvType',
    'dashboard.csvStatus',
    'dashboard.csvCreated',
    'dashboard.csvResponses',
    'dashboard.csvParticipants',
    'dashboard.csvCompletionRate',
    'dashboard.csvOverdue',
    'dashboard.csvJoinLink',
  ],
  loop: 'dashboard.csvLoop',
  healthCheck: 'dashboard.csvHealthCheck',
  yes: 'dashboard.csvYes',
  no: 'dashboard.csvNo',
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

/**
 * The dashboard download: one row per listed item (health check or loop) with its figures, its words said by
 * `say` (a catalogue key in, its text in the downloader's language out).
 */
export function dashboardCsv(
  items: (DashboardItem | LoopDashboardItem)[],
  statusLabel: (status: string) => string,
  say: (key: string) => string,
): string {
  const header = CSV_WORDS.header.map(say);
  const rows = items.map((item) => [
    item.title,
    say(item.kind === 'loop' ? CSV_WORDS.loop : CSV_WORDS.healthCheck),
    statusLabel(item.status),
    item.createdAt.slice(0, 10),
    item.responses,
    item.totalParticipants,
    item.completionRate,
    say(item.overdue ? CSV_WORDS.yes : CSV_WORDS.no),
    // A loop has no join link: its rounds are e-mailed to each member.
    item.kind === 'loop' ? '' : item.joinUrl,
  ]);
  return csvFile([header, ...rows]);
}
