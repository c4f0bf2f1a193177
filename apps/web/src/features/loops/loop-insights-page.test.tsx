import type { LoopInsights, TrendLine, TrendPoint } from '@pulsecheck/shared/loops/contract';
import { CHANGE_LABELS } from '@pulsecheck/shared/loops/stats';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoutes, stubFetch } from '@/test/render';
import { LoopInsightsPage } from './loop-insights-page';

const LOOP = '77777777-7777-4777-8777-777777777777';
const rid = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;

const point = (
  number: number,
  value: number | null,
  change: TrendPoint['change'],
  label: string,
): TrendPoint => ({
  roundId: rid(number),
  number,
  openedAt: `2026-11-0${number}T08:00:00Z`,
  answers: 5,
  state: value === null ? 'below-threshold' : 'released',
  value,
  change,
  label,
});

const line = (overrides: Partial<TrendLine>): TrendLine => ({
  id: '11111111-1111-4111-8111-111111111111',
  kind: 'scale',
  text: 'How was your week?',
  lowLabel: 'Rough',
  highLabel: 'Great',
  shownIn: null,
  current: true,
  points: [],
  ...overrides,
});

const insights: LoopInsights = {
  loop: { id: LOOP, title: 'Weekly Pulse', status: 'active', anonymous: true },
  lines: [
    line({
      points: [
        point(1, 3.2, null, CHANGE_LABELS.none),
        point(2, 4.1, { change: 0.9, margin: 0.5, real: true }, CHANGE_LABELS.real),
        point(3, null, null, CHANGE_LABELS.none),
      ],
    }),
    line({
      id: '22222222-2222-4222-8222-222222222222',
      text: 'How was your sprint?',
      current: false,
      points: [point(1, 3, null, CHANGE_LABELS.none)],
    }),
  ],
  enps: [
    line({
      id: '33333333-3333-4333-8333-333333333333',
      kind: 'enps',
      text: 'Would you recommend us?',
      lowLabel: null,
      highLabel: null,
      points: [
        point(1, 10, null, CHANGE_LABELS.none),
        point(2, -5, { change: -15, margin: 40, real: false }, CHANGE_LABELS.normal),
      ],
    }),
  ],
  actionsWorked: { asked: 0, answered: 0, workedShare: null },
  participation: [
    { ...point(1, 80, null, CHANGE_LABELS.none), audience: 10, answers: 8 },
    {
      ...point(2, 50, { change: -30, margin: 39.5, real: false }, CHANGE_LABELS.normal),
      audience: 10,
      answers: 5,
    },
    { ...point(3, 90, { change: 40, margin: 33, real: true }, CHANGE_LABELS.real), audience: 10, answers: 9 },
  ],
  method: 'A change is called real when …',
};

describe('Loop Insights', () => {
  it('charts each trend and lists the same numbers with the verdict of each change', async () => {
    stubFetch(() => Response.json(insights));
    renderRoutes([{ path: '/admin/loop-insights/:loopId/overview', element: <LoopInsightsPage /> }], {
      at: `/admin/loop-insights/${LOOP}/overview`,
    });
    expect(
      await screen.findByRole('img', { name: /^How was your week\?: mean by round/ }),
    ).toBeInTheDocument();
    const week = screen.getByRole('table', { name: 'How was your week?: mean by round' });
    const rows = within(week).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining('3.2First round of this line'),
      expect.stringContaining('4.1Real change+0.9 (± 0.5)'),
      expect.stringContaining('Too few responses'),
    ]);

    const enps = screen.getByRole('table', { name: 'eNPS: eNPS by round' });
    expect(within(enps).getAllByRole('row')[2]).toHaveTextContent(
      '−5Within normal variation−15 points (± 40 points)',
    );

    const participation = screen.getByRole('table', { name: 'Participation: response rate by round' });
    expect(within(participation).getAllByRole('row')[3]).toHaveTextContent(
      '9 of 1090%Real change+40 points (± 33 points)',
    );

    // The reworded question keeps its own line, under the earlier wordings.
    const earlier = screen.getByRole('region', { name: 'Earlier wordings' });
    expect(within(earlier).getByRole('img', { name: /^How was your sprint\?/ })).toBeInTheDocument();
    expect(screen.getByText('A change is called real when …')).toBeInTheDocument();
  });

  it('before any round, says trends come once rounds have opened', async () => {
    stubFetch(() => Response.json({ ...insights, lines: [], enps: [], participation: [] }));
    renderRoutes([{ path: '/admin/loop-insights/:loopId/overview', element: <LoopInsightsPage /> }], {
      at: `/admin/loop-insights/${LOOP}/overview`,
    });
    expect(await screen.findByRole('heading', { name: 'No rounds yet' })).toBeInTheDocument();
  });
});
