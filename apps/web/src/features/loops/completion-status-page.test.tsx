import type { CompletionStatus, RoundSummary } from '@pulsecheck/shared/loops/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderRoutes, stubFetch } from '@/test/render';
import { CompletionStatusPage } from './completion-status-page';

const LOOP = '77777777-7777-4777-8777-777777777777';
const ROUND = '88888888-8888-4888-8888-888888888888';
const id = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;

const summary = (overrides: Partial<RoundSummary> = {}): RoundSummary => ({
  id: ROUND,
  number: 2,
  status: 'open',
  openedAt: '2026-11-23T08:00:00Z',
  closesAt: '2026-11-26T08:00:00Z',
  closedAt: null,
  audience: 4,
  answered: 1,
  responseRate: 25,
  anonymous: true,
  minResponses: 3,
  ...overrides,
});

const status = (overrides: Partial<CompletionStatus> = {}): CompletionStatus => ({
  loop: {
    id: LOOP,
    title: 'Weekly Pulse',
    status: 'active',
    anonymous: true,
    reminder: true,
    schedule: 'Every Monday at 09:00 (Europe/Berlin)',
    nextRoundAt: '2026-11-30T08:00:00Z',
    canChange: true,
  },
  now: '2026-11-24T08:00:00Z',
  current: {
    ...summary(),
    timeLeftMs: (2 * 24 + 3) * 3_600_000 + 30 * 60_000,
    answeredBy: [{ memberId: id(1), name: 'Ana' }],
    notAnswered: [
      { memberId: id(2), name: 'Bo' },
      { memberId: id(3), name: 'Cy' },
      { memberId: id(4), name: 'Di' },
    ],
    remindedAt: null,
  },
  history: [
    summary(),
    summary({
      id: id(9),
      number: 1,
      status: 'closed',
      answered: 4,
      responseRate: 100,
      closedAt: '2026-11-19T08:00:00Z',
    }),
  ],
  ...overrides,
});

function renderStatus(data: CompletionStatus, post: (url: string) => Response = () => Response.json({})) {
  const posted: string[] = [];
  stubFetch((url, init) => {
    if (init?.method === 'POST') {
      posted.push(new URL(url, 'http://x').pathname);
      return post(url);
    }
    return Response.json(data);
  });
  renderRoutes([{ path: '/admin/completion-status/:loopId', element: <CompletionStatusPage /> }], {
    at: `/admin/completion-status/${LOOP}`,
  });
  return posted;
}

describe('Completion Status', () => {
  it('shows the open round: rate, who has and has not answered (names only), time left and the history', async () => {
    renderStatus(status());
    expect(await screen.findByRole('heading', { name: 'Round 2' })).toBeInTheDocument();
    expect(screen.getByTestId('response-rate')).toHaveTextContent('25%');
    expect(screen.getByTestId('answered')).toHaveTextContent('1 of 4 answered');
    expect(screen.getByTestId('time-left')).toHaveTextContent('2 days 3 hours left');
    expect(within(screen.getByRole('region', { name: 'Answered (1)' })).getByText('Ana')).toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: 'Not answered yet (3)' })).getAllByRole('listitem'),
    ).toHaveLength(3);
    expect(screen.getByText(/never what they said/)).toBeInTheDocument();
    expect(screen.getByTestId('round-1-rate')).toHaveTextContent('100%');
    expect(screen.getByRole('link', { name: 'Results of round 1' })).toHaveAttribute(
      'href',
      `/admin/loop-results/${LOOP}?round=${id(9)}`,
    );
  });

  it('closes the round only after the confirmation, and reminds at once', async () => {
    const user = userEvent.setup();
    const posted = renderStatus(status(), (url) =>
      url.endsWith('/remind')
        ? Response.json({ reminded: 3, mail: 'sending' })
        : Response.json({ round: summary({ status: 'closed' }) }),
    );
    await user.click(await screen.findByRole('button', { name: 'Close Round Now' }));
    const dialog = screen.getByRole('dialog', { name: 'Close Round Now?' });
    expect(dialog).toHaveTextContent('Round 2 stops taking answers now');
    expect(posted).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(posted).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Close Round Now' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Close Round' }));
    await waitFor(() => expect(posted).toEqual([`/api/loops/${LOOP}/rounds/${ROUND}/close`]));

    await user.click(screen.getByRole('button', { name: 'Send Reminder' }));
    await waitFor(() => expect(posted.at(-1)).toBe(`/api/loops/${LOOP}/rounds/${ROUND}/remind`));
  });

  it('offers resume to a paused loop, and no actions to someone who may not change it', async () => {
    renderStatus(status({ loop: { ...status().loop, status: 'paused', nextRoundAt: null } }));
    expect(await screen.findByText(/This loop is paused/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Resume Loop' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Start Next Round Now' })).toBeNull();
  });

  it('hides the actions from a member who did not create the loop', async () => {
    renderStatus(status({ loop: { ...status().loop, canChange: false } }));
    await screen.findByRole('heading', { name: 'Round 2' });
    expect(screen.queryByRole('button', { name: 'Close Round Now' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Actions' })).toBeNull();
  });

  it('between rounds, says when the next one opens', async () => {
    renderStatus(status({ current: null }));
    expect(await screen.findByRole('heading', { name: 'No round is open' })).toBeInTheDocument();
    expect(screen.getByText(/The next round opens/)).toBeInTheDocument();
  });

  it('says a loop that is not yours was not found', async () => {
    stubFetch(() =>
      Response.json({ error: { code: 'not_found', message: 'Loop not found' } }, { status: 404 }),
    );
    renderRoutes([{ path: '/admin/completion-status/:loopId', element: <CompletionStatusPage /> }], {
      at: `/admin/completion-status/${LOOP}`,
    });
    expect(await screen.findByRole('heading', { name: 'Loop not found' })).toBeInTheDocument();
  });
});
