import type {
  InsightsResponse,
  InsightTeam,
  LoopInsightsResponse,
} from '@pulsecheck/shared/insights/schemas';
import { act, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoutes, stubFetch } from '@/test/render';
import { ALL_COLUMNS_UP_TO } from './heat-map';
import { InsightsPage } from './insights-page';

const ORG = '55555555-5555-4555-8555-555555555555';

const team = (index: number): InsightTeam => ({
  id: `team-${index}`,
  name: `Team ${String(index).padStart(3, '0')}`,
  check: { id: `check-${index}`, title: 'Q3 check', completedAt: '2026-11-01T00:00:00.000Z' },
  responses: 5,
  overallHealth: 'Mostly Healthy',
  score: 60 - index,
  change: null,
  cells: { c1: [4, 1, 0, 0, null] },
  hidden: [],
});

const insights = (teams: InsightTeam[]): InsightsResponse => ({
  organization: { id: ORG, name: 'Acme' },
  period: '365d',
  since: '2025-11-25T00:00:00.000Z',
  category: null,
  rows: [{ category: 'How we communicate', components: [{ key: 'c1', title: 'Decisions' }] }],
  categories: ['How we communicate'],
  teams,
  leftOut: [],
  organisation: { teams: teams.length, cells: { c1: [8, 2, 0, 0, null] }, overallHealth: 'Mostly Healthy' },
  priorities: { components: [], falling: [] },
});

const NO_LOOPS: LoopInsightsResponse = {
  period: '365d',
  since: '2025-11-25T00:00:00.000Z',
  loops: [],
  leftOut: [],
  trend: [],
  pooled: { loops: 0, teams: 0, leftOutLoops: 0, leftOutTeams: 0 },
};

function renderPage(teams: InsightTeam[]) {
  stubFetch((url) => Response.json(url.includes('/insights/loops') ? NO_LOOPS : insights(teams)));
  renderRoutes([{ path: '/admin/insights', element: <InsightsPage organizationId={ORG} /> }], {
    at: '/admin/insights?sort=name',
  });
}

const print = (phase: 'beforeprint' | 'afterprint') => act(() => void window.dispatchEvent(new Event(phase)));

describe('Insights print layout', () => {
  it('hides the app chrome, the filters and the buttons on paper, and says which view was printed', async () => {
    renderPage([team(1), team(2)]);
    await screen.findByRole('link', { name: 'Export CSV' });
    const css = [...document.querySelectorAll('style')].map((style) => style.textContent).join('\n');
    expect(css).toMatch(/@media print \{[^}]*#admin-sidebar[^}]*\[data-print-hide\][^}]*display: none/);
    expect(screen.getByRole('link', { name: 'Export CSV' }).closest('[data-print-hide]')).not.toBeNull();
    expect(screen.getByLabelText('Period').closest('[data-print-hide]')).not.toBeNull();
    // The printed page names the view (period, category and order); on screen the controls show it.
    const summary = screen.getByText(/· All categories · /);
    expect(summary).toHaveClass('hidden', 'print:block');
  });

  it(`prints a table of every team instead of a map wider than paper (over ${ALL_COLUMNS_UP_TO} teams), while printing only`, async () => {
    const teams = Array.from({ length: ALL_COLUMNS_UP_TO + 6 }, (_, i) => team(i + 1));
    renderPage(teams);
    await screen.findByRole('link', { name: 'Export CSV' });
    expect(screen.queryByText(/teams are too many columns for paper/)).toBeNull();

    print('beforeprint');
    const note = screen.getByText(`${teams.length} teams are too many columns for paper`, { exact: false });
    const table = within(note.parentElement!).getByRole('table');
    expect(within(table).getAllByRole('row')).toHaveLength(teams.length + 1);
    expect(within(table).getByRole('cell', { name: 'Team 030' })).toBeInTheDocument();
    // The map itself is left off the paper.
    expect(screen.getByTestId('heat-map').closest('.print\\:hidden')).not.toBeNull();

    print('afterprint');
    expect(screen.queryByText(/teams are too many columns for paper/)).toBeNull();
  });
});
