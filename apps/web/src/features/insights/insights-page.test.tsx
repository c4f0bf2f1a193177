import type {
  ActionInsightsResponse,
  InsightsResponse,
  InsightTeam,
  LoopInsightsResponse,
} from '@pulsecheck/shared/insights/schemas';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderRoutes, stubFetch } from '@/test/render';
import { InsightsPage } from './insights-page';

const ORG = '55555555-5555-4555-8555-555555555555';

const team = (index: number, overrides: Partial<InsightTeam> = {}): InsightTeam => ({
  id: `team-${index}`,
  name: `Team ${String(index).padStart(3, '0')}`,
  check: { id: `check-${index}`, title: 'Q3 check', completedAt: '2026-11-01T00:00:00.000Z' },
  responses: 5,
  overallHealth: 'Mostly Healthy',
  score: 60 - index,
  change: null,
  cells: { c1: [4, 1, 0, 0, 'better'], c2: [0, 1, 4, 0, 'worse'] },
  hidden: [],
  ...overrides,
});

const insights = (teams: InsightTeam[], overrides: Partial<InsightsResponse> = {}): InsightsResponse => ({
  organization: { id: ORG, name: 'Acme' },
  period: '365d',
  since: '2025-11-25T00:00:00.000Z',
  category: null,
  rows: [
    {
      category: 'How we communicate',
      components: [
        { key: 'c1', title: 'Decisions' },
        { key: 'c2', title: 'Meetings' },
        { key: 'c3', title: 'Feedback' },
      ],
    },
  ],
  categories: ['How we communicate', 'How we meet'],
  teams,
  leftOut: [{ id: 'small', name: 'Small team', reason: 'below-floor' }],
  organisation: { teams: teams.length, cells: { c1: [8, 2, 0, 0, null] }, overallHealth: 'Mostly Healthy' },
  priorities: {
    components: [{ key: 'c2', title: 'Meetings', category: 'How we communicate', teams: 2 }],
    falling: [],
  },
  ...overrides,
});

const NO_LOOPS: LoopInsightsResponse = {
  period: '365d',
  since: '2025-11-25T00:00:00.000Z',
  loops: [],
  leftOut: [],
  trend: [],
  pooled: { loops: 0, teams: 0, leftOutLoops: 0, leftOutTeams: 0 },
};

const NO_ACTIONS: ActionInsightsResponse = {
  period: '365d',
  since: '2025-11-25T00:00:00.000Z',
  teams: [],
  organisation: {
    teams: 0,
    done: 0,
    asked: 0,
    answered: 0,
    workedShare: null,
    compared: 0,
    improvedShare: null,
  },
};

function renderPage(
  body: InsightsResponse | (() => Response),
  at = '/admin/insights',
  loops: LoopInsightsResponse = NO_LOOPS,
  actions: ActionInsightsResponse = NO_ACTIONS,
) {
  const fetch = stubFetch((url) =>
    url.includes('/insights/loops')
      ? Response.json(loops)
      : url.includes('/insights/actions')
        ? Response.json(actions)
        : typeof body === 'function'
          ? body()
          : Response.json(body),
  );
  renderRoutes([{ path: '/admin/insights', element: <InsightsPage organizationId={ORG} /> }], { at });
  return fetch;
}

describe('InsightsPage', () => {
  it('labels every cell in words, with its arrow, and links it to the team’s results at that component', async () => {
    renderPage(insights([team(1), team(2, { hidden: ['c3'] })]));
    const cell = await screen.findByRole('link', {
      name: "Decisions in Team 001: Healthy. Mostly Healthy: 80% healthy, 20% needs improvement, 0% fire warning, better than the previous check. Open the team's results.",
    });
    expect(cell).toHaveAttribute('href', '/admin/health-check/check-1/results#component-c1');
    expect(within(cell).getByText('Healthy')).toBeInTheDocument();
    expect(
      screen.getAllByRole('link', {
        name: /^Meetings in Team 001: Urgent\. Needs Immediate Attention.*worse than/,
      }),
    ).toHaveLength(1);
    expect(screen.getAllByText('Urgent').length).toBeGreaterThan(0);
    // A hidden cell and a component the check lacked say so, and link nowhere.
    expect(screen.getByText('Too few responses to show')).toBeInTheDocument();
    expect(screen.getAllByText('Not in this check').length).toBeGreaterThan(0);
    expect(screen.getByTestId('left-out')).toHaveTextContent(
      'The Organisation column pools 2 teams. 1 team is left out: 1 with fewer responses than their minimum, 0 with no completed health check in this period.',
    );
    expect(screen.getByRole('columnheader', { name: /Organisation \(2 teams\)/ })).toBeInTheDocument();
    expect(within(screen.getByTestId('top-components')).getByText('Meetings')).toBeInTheDocument();
  });

  it('sorts the teams and asks the server again for another period, keeping the choice in the address', async () => {
    const fetch = renderPage(insights([team(1, { score: 80 }), team(2, { score: -10 })]));
    const headers = async () =>
      (await screen.findAllByTestId('team-column')).map((th) => th.textContent?.split('Healthy')[0]);
    expect(await headers()).toEqual(['Team 002', 'Team 001']);
    await userEvent.selectOptions(screen.getByLabelText('Sort teams by'), 'name');
    expect(await headers()).toEqual(['Team 001', 'Team 002']);
    await userEvent.selectOptions(screen.getByLabelText('Period'), '90d');
    expect(fetch.mock.calls.at(-1)?.[0]).toContain('period=90d');
    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute(
      'href',
      `/api/organizations/${ORG}/insights/csv?period=90d&sort=name`,
    );
  });

  it('draws only the columns in view of a 500-team organisation', async () => {
    renderPage(insights(Array.from({ length: 500 }, (_, i) => team(i))));
    // The columns come in a deferred, time-sliced render: slow in jsdom.
    const columns = await screen.findAllByTestId('team-column', {}, { timeout: 8000 });
    expect(columns.length).toBeLessThan(40);
    expect(within(screen.getByTestId('heat-map')).getByRole('table')).toHaveAttribute('aria-colcount', '502');
  });

  it('says what to do when no team has a completed check, and when loading fails', async () => {
    renderPage(insights([], { organisation: { teams: 0, cells: {}, overallHealth: null } }));
    expect(
      await screen.findByText('No team has a completed health check in this period yet.'),
    ).toBeInTheDocument();
    expect(screen.getByText(/Choose a longer period/)).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it("shows each team's latest loop round (participation, eNPS or why not) and the organisation's trend", async () => {
    const round = (number: number, answered: number, audience: number, participation: number) => ({
      id: `round-${number}`,
      number,
      openedAt: '2026-11-09T08:00:00.000Z',
      closedAt: '2026-11-12T08:00:00.000Z',
      audience,
      answered,
      participation,
    });
    renderPage(insights([team(1)]), '/admin/insights', {
      ...NO_LOOPS,
      loops: [
        {
          id: 'l1',
          title: 'Weekly Pulse',
          workspace: { id: 'w1', name: 'Alpha' },
          round: round(3, 4, 5, 80),
          enpsState: 'shown',
          enps: { score: -25, answers: 4 },
        },
        {
          id: 'l2',
          title: 'Focus',
          workspace: { id: 'w2', name: 'Bravo' },
          round: round(1, 3, 3, 100),
          enpsState: 'none',
          enps: null,
        },
      ],
      leftOut: [{ id: 'l3', title: 'Tiny pulse', workspace: { id: 'w3', name: 'Charlie' } }],
      trend: [
        {
          month: '2026-11',
          rounds: 2,
          teams: 2,
          audience: 8,
          answered: 7,
          participation: 88,
          enps: { score: 25, answers: 4 },
        },
      ],
      pooled: { loops: 2, teams: 2, leftOutLoops: 1, leftOutTeams: 1 },
    });
    const rows = await screen.findAllByTestId('loop-row');
    expect(rows.map((row) => row.textContent)).toEqual([
      'AlphaWeekly PulseRound 3, closed 12 Nov 202680% (4 of 5)−25 (4 answers)',
      'BravoFocusRound 1, closed 12 Nov 2026100% (3 of 3)No eNPS question',
    ]);
    expect(screen.getByTestId('loops-left-out')).toHaveTextContent(
      'The organisation trend pools 2 loops of 2 teams. 1 loop is left out (1 team with no loop shown): fewer responses than their minimum in their latest round.',
    );
    expect(
      within(screen.getByTestId('loop-trend')).getByRole('row', { name: /November 2026/ }),
    ).toHaveTextContent('November 20262 (2 rounds)88% (7 of 8)+25 (4 answers)');
  });

  it("shows 'Actions that worked' per team and for the organisation, saying why a share is missing", async () => {
    const row = (over: Partial<ActionInsightsResponse['organisation']>) => ({
      done: 1,
      asked: 1,
      answered: 3,
      workedShare: 67,
      compared: 1,
      improvedShare: 100,
      ...over,
    });
    renderPage(insights([team(1)]), '/admin/insights', NO_LOOPS, {
      ...NO_ACTIONS,
      teams: [
        { id: 'w1', name: 'Alpha', ...row({}) },
        {
          id: 'w2',
          name: 'Bravo',
          ...row({ answered: 0, workedShare: null, compared: 0, improvedShare: null }),
        },
        {
          id: 'w3',
          name: 'Charlie',
          ...row({ asked: 0, answered: 0, workedShare: null, compared: 0, improvedShare: null }),
        },
      ],
      organisation: { teams: 3, ...row({ done: 3, asked: 2 }) },
    });
    const rows = await screen.findAllByTestId('actions-row');
    expect(rows.map((r) => r.textContent)).toEqual([
      'Alpha1167% (3 answers)100% (1 action)',
      'Bravo11Too few answers to showNot compared yet',
      'Charlie10Not asked about yetNot asked about yet',
    ]);
    expect(screen.getByTestId('actions-organisation')).toHaveTextContent(
      'Organisation (3 teams)3267% (3 answers)100% (1 action)',
    );
    expect(screen.getByRole('columnheader', { name: "Answered 'Yes' or 'Partly'" })).toBeInTheDocument();
  });

  it('says when no team marked an action done', async () => {
    renderPage(insights([team(1)]));
    expect(await screen.findByText('No team marked an action item done in this period.')).toBeInTheDocument();
  });

  it('says when no loop has a closed round', async () => {
    renderPage(insights([team(1)]));
    expect(await screen.findByText('No loop has a closed round in this period yet.')).toBeInTheDocument();
  });

  it('shows the failure with Try Again', async () => {
    renderPage(() =>
      Response.json({ error: { code: 'internal', message: 'Database down' } }, { status: 500 }),
    );
    expect(await screen.findByText('Failed to load organisation insights')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeInTheDocument();
  });
});
