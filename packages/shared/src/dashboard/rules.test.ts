import { describe, expect, it } from 'vitest';
import type { LoopDashboardItem } from '../loops/contract';
import { english } from '../i18n/english.test-support';
import { dashboardCsv, dashboardStats } from './rules';
import type { DashboardItem } from './schemas';

const item = (overrides: Partial<DashboardItem> = {}): DashboardItem => ({
  id: 'a',
  kind: 'health-check',
  title: 'Q1 check',
  description: null,
  status: 'phase_1',
  phase: 'collect',
  createdAt: '2026-01-02T03:04:05.000Z',
  phaseStartedAt: '2026-01-02T03:04:05.000Z',
  completedAt: null,
  responses: 2,
  totalParticipants: 3,
  completionRate: 67,
  overdue: false,
  joinUrl: 'http://localhost:3000/join/a',
  ...overrides,
});

/** The download's words in English, as the dashboard says them. */
const say = (key: string) => english.say(key);

describe('dashboard CSV', () => {
  it('writes a header and one row per item', () => {
    const csv = dashboardCsv([item()], () => 'Active', say);
    expect(csv.split('\r\n')).toEqual([
      'Title,Type,Status,Created,Responses,Participants,Completion Rate (%),Overdue,Join Link',
      'Q1 check,Health Check,Active,2026-01-02,2,3,67,no,http://localhost:3000/join/a',
      '',
    ]);
  });

  it('writes loops with their type and no join link', () => {
    const loop: LoopDashboardItem = {
      id: '00000000-0000-4000-8000-000000000001',
      kind: 'loop',
      title: 'Weekly Pulse',
      description: null,
      status: 'active',
      loopStatus: 'paused',
      createdAt: '2026-01-05T10:00:00Z',
      completedAt: null,
      responses: 4,
      totalParticipants: 5,
      completionRate: 80,
      overdue: false,
      currentRound: 2,
      roundOpen: true,
      nextRoundAt: null,
      link: '/admin/completion-status/00000000-0000-4000-8000-000000000001',
    };
    expect(dashboardCsv([loop], () => 'Active', say).split('\r\n')[1]).toBe(
      'Weekly Pulse,Loop,Active,2026-01-05,4,5,80,no,',
    );
  });

  it('quotes commas and quotes, and neutralises formulas', () => {
    const csv = dashboardCsv(
      [item({ title: 'Team "A", B' }), item({ title: '=HYPERLINK(1)' })],
      () => 'Active',
      say,
    );
    const lines = csv.split('\r\n');
    expect(lines[1]?.startsWith('"Team ""A"", B",')).toBe(true);
    expect(lines[2]?.startsWith("'=HYPERLINK(1),")).toBe(true);
  });
});

describe('dashboard stats (PRODUCT-DECISIONS 9)', () => {
  it('counts active and completed items, sums responses and averages the completion rates', () => {
    const stats = dashboardStats([
      { status: 'phase_1', responses: 23, totalParticipants: 40 },
      { status: 'phase_2', responses: 1, totalParticipants: 3 },
      { status: 'completed', responses: 0, totalParticipants: 0 },
    ]);
    // 58 (exactly 57.5, rounded up), 33 and 0: mean 30.33 → 30.
    expect(stats).toEqual({
      activeSurveys: 2,
      totalResponses: 24,
      avgCompletionRate: 30,
      activeCount: 2,
      completedCount: 1,
    });
    expect(dashboardStats([])).toEqual({
      activeSurveys: 0,
      totalResponses: 0,
      avgCompletionRate: 0,
      activeCount: 0,
      completedCount: 0,
    });
  });
});
