import type { DashboardItem, DashboardResponse, DashboardStats } from '@pulsecheck/shared/dashboard/schemas';
import type { LoopDashboardItem } from '@pulsecheck/shared/loops/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderRoutes } from '@/test/render';
import { DashboardPage } from './dashboard-page';

const stats = (activeSurveys: number, completedCount: number, totalResponses: number): DashboardStats => ({
  activeSurveys,
  totalResponses,
  avgCompletionRate: 50,
  activeCount: activeSurveys,
  completedCount,
});

const check: DashboardItem = {
  id: 'hc-1',
  kind: 'health-check',
  title: 'Q3 Health',
  description: null,
  status: 'phase_1',
  phase: 'collect',
  createdAt: '2026-11-01T00:00:00Z',
  phaseStartedAt: '2026-11-01T00:00:00Z',
  completedAt: null,
  responses: 2,
  totalParticipants: 4,
  completionRate: 50,
  overdue: false,
  joinUrl: 'http://localhost/join/hc-1',
};

const loop = (overrides: Partial<LoopDashboardItem>): LoopDashboardItem => ({
  id: '77777777-7777-4777-8777-777777777777',
  kind: 'loop',
  title: 'Weekly Pulse',
  description: null,
  status: 'active',
  loopStatus: 'active',
  createdAt: '2026-11-10T00:00:00Z',
  completedAt: null,
  responses: 3,
  totalParticipants: 4,
  completionRate: 75,
  overdue: false,
  currentRound: 2,
  roundOpen: true,
  nextRoundAt: null,
  link: '/admin/completion-status/77777777-7777-4777-8777-777777777777',
  ...overrides,
});

const ENDED = '99999999-9999-4999-8999-999999999999';

const dashboard: DashboardResponse = {
  workspace: { id: 'w-1', name: 'Loop Co' },
  stats: stats(2, 1, 8),
  statsByFilter: { all: stats(2, 1, 8), loops: stats(1, 1, 6), 'health-checks': stats(1, 0, 2) },
  items: [check],
  loops: [
    loop({}),
    loop({
      id: ENDED,
      title: 'Old Pulse',
      status: 'completed',
      loopStatus: 'completed',
      createdAt: '2026-10-01T00:00:00Z',
      roundOpen: false,
      link: `/admin/loop-results/${ENDED}`,
    }),
  ],
  actionsToFollowUp: [],
  globalTemplates: [],
};

describe('admin dashboard with loops', () => {
  it('lists loops under the Loops filter with the filter’s figures, each card linking by its status', async () => {
    const user = userEvent.setup();
    renderRoutes([{ path: '/admin/dashboard', element: <DashboardPage /> }], {
      at: '/admin/dashboard',
      seed: [[['dashboard'], dashboard]],
    });
    expect(screen.getAllByRole('article').map((card) => card.getAttribute('aria-label'))).toEqual([
      'Weekly Pulse',
      'Q3 Health',
      'Old Pulse',
    ]);
    expect(screen.getByTestId('stat-Total Responses')).toHaveTextContent('8');

    await user.click(screen.getByRole('button', { name: 'Loops' }));
    expect(screen.getAllByRole('article')).toHaveLength(2);
    expect(screen.getByTestId('stat-Total Responses')).toHaveTextContent('6');
    expect(screen.getByRole('tab', { name: 'Active (1)' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Completed (1)' })).toBeInTheDocument();

    const active = screen.getByRole('article', { name: 'Weekly Pulse' });
    expect(active).toHaveTextContent('Round 2 · 3 of 4 responses');
    expect(within(active).getByRole('link', { name: 'Completion Status' })).toHaveAttribute(
      'href',
      '/admin/completion-status/77777777-7777-4777-8777-777777777777',
    );
    expect(within(active).getByRole('link', { name: 'Preview Results' })).toHaveAttribute(
      'href',
      '/admin/loop-results/77777777-7777-4777-8777-777777777777',
    );
    const ended = screen.getByRole('article', { name: 'Old Pulse' });
    expect(within(ended).getByRole('link', { name: 'View Results' })).toHaveAttribute(
      'href',
      `/admin/loop-results/${ENDED}`,
    );
    expect(within(ended).getByRole('link', { name: 'Insights' })).toHaveAttribute(
      'href',
      `/admin/loop-insights/${ENDED}/overview`,
    );

    await user.click(screen.getByRole('button', { name: 'Health Checks' }));
    expect(screen.getAllByRole('article').map((card) => card.getAttribute('aria-label'))).toEqual([
      'Q3 Health',
    ]);
    expect(screen.getByTestId('stat-Total Responses')).toHaveTextContent('2');
    expect(screen.getByRole('link', { name: 'Create Loop' })).toHaveAttribute(
      'href',
      '/admin/templates?type=loop',
    );
  });
});

describe("'Actions to follow up' on the dashboard", () => {
  it('lists each action with why, its check and owner, linking to the check’s action items', async () => {
    renderRoutes([{ path: '/admin/dashboard', element: <DashboardPage /> }], {
      at: '/admin/dashboard',
      seed: [
        [
          ['dashboard'],
          {
            ...dashboard,
            actionsToFollowUp: [
              {
                id: 'a1',
                description: 'Pair on reviews',
                healthCheckId: 'hc-1',
                checkTitle: 'Q3 Health',
                ownerName: 'Ada',
                dueDate: null,
                completedAt: '2026-10-01T00:00:00.000Z',
                reason: 'no-follow-up',
                days: 40,
              },
              {
                id: 'a2',
                description: 'Fix the build',
                healthCheckId: 'hc-1',
                checkTitle: 'Q3 Health',
                ownerName: null,
                dueDate: '2026-11-01',
                completedAt: null,
                reason: 'overdue',
                days: 9,
              },
            ],
          },
        ],
      ],
    });
    const section = screen.getByRole('region', { name: 'Actions to follow up' });
    expect(
      within(section)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'Pair on reviewsDone 40 days ago; no check has asked whether it helpedQ3 Health · Ada',
      'Fix the buildOverdue by 9 daysQ3 Health',
    ]);
    expect(within(section).getByRole('link', { name: 'Fix the build' })).toHaveAttribute(
      'href',
      '/admin/health-check/hc-1/results#action-items',
    );
  });

  it('shows nothing when there is nothing to follow up', () => {
    renderRoutes([{ path: '/admin/dashboard', element: <DashboardPage /> }], {
      at: '/admin/dashboard',
      seed: [[['dashboard'], dashboard]],
    });
    expect(screen.queryByRole('region', { name: 'Actions to follow up' })).toBeNull();
  });
});
