import type { LoopResults, QuestionResult, RoundSummary } from '@pulsecheck/shared/loops/contract';
import { say } from '@/lib/i18n';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderRoutes, stubFetch } from '@/test/render';
import { LoopResultsPage } from './loop-results-page';

const LOOP = '77777777-7777-4777-8777-777777777777';
const R1 = '00000000-0000-4000-8000-000000000001';
const R2 = '00000000-0000-4000-8000-000000000002';

const round = (id: string, number: number, overrides: Partial<RoundSummary> = {}): RoundSummary => ({
  id,
  number,
  status: 'closed',
  openedAt: `2026-11-0${number}T08:00:00Z`,
  closesAt: `2026-11-0${number + 2}T08:00:00Z`,
  closedAt: `2026-11-0${number + 2}T08:00:00Z`,
  audience: 5,
  answered: 4,
  responseRate: 80,
  anonymous: true,
  minResponses: 3,
  ...overrides,
});

const question = (overrides: Partial<QuestionResult>): QuestionResult => ({
  id: '11111111-1111-4111-8111-111111111111',
  kind: 'scale',
  text: 'How was your week?',
  lowLabel: 'Rough',
  highLabel: 'Great',
  shownIn: null,
  answers: 4,
  state: 'released',
  message: null,
  counts: null,
  shares: null,
  mean: null,
  enps: null,
  texts: null,
  ...overrides,
});

const released: LoopResults = {
  loop: { id: LOOP, title: 'Weekly Pulse', status: 'active', anonymous: true, canChange: true },
  rounds: [round(R2, 2), round(R1, 1)],
  round: {
    ...round(R2, 2),
    state: 'released',
    message: null,
    followUps: [],
    questions: [
      question({ counts: [0, 1, 0, 2, 1], shares: [0, 25, 0, 50, 25], mean: 3.75 }),
      question({
        id: '22222222-2222-4222-8222-222222222222',
        kind: 'enps',
        text: 'Would you recommend us?',
        lowLabel: 'Not at all likely',
        highLabel: 'Extremely likely',
        counts: [0, 0, 0, 0, 0, 1, 0, 0, 1, 1, 1],
        shares: [0, 0, 0, 0, 0, 25, 0, 0, 25, 25, 25],
        enps: { promoters: 2, passives: 1, detractors: 1, score: 25 },
      }),
      question({
        id: '33333333-3333-4333-8333-333333333333',
        kind: 'text',
        text: 'Anything else?',
        lowLabel: null,
        highLabel: null,
        answers: 3,
        texts: [
          { text: 'fewer meetings', author: null },
          { text: 'More focus', author: null },
        ],
      }),
    ],
  },
};

function renderResults(answer: (roundId: string | null) => LoopResults) {
  const asked: (string | null)[] = [];
  stubFetch((url) => {
    const roundId = new URL(url, 'http://x').searchParams.get('roundId');
    asked.push(roundId);
    return Response.json(answer(roundId));
  });
  renderRoutes([{ path: '/admin/loop-results/:loopId', element: <LoopResultsPage /> }], {
    at: `/admin/loop-results/${LOOP}`,
  });
  return asked;
}

describe('Loop Results', () => {
  it('shows per question the 1–5 histogram with its mean, the eNPS with its groups, and free text without names', async () => {
    renderResults(() => released);
    const scale = await screen.findByRole('article', { name: 'Question 1: How was your week?' });
    expect(scale).toHaveTextContent('Mean 3.8 of 5');
    const bars = within(within(scale).getByRole('list', { name: /Answers to question/ })).getAllByRole(
      'listitem',
    );
    expect(bars.map((bar) => bar.textContent)).toEqual([
      '1Rough0 (0%)',
      '21 (25%)',
      '30 (0%)',
      '42 (50%)',
      '5Great1 (25%)',
    ]);

    const enps = screen.getByRole('article', { name: 'Question 2: Would you recommend us?' });
    expect(within(enps).getByTestId('enps-score')).toHaveTextContent('+25');
    expect(enps).toHaveTextContent('Promoters (9–10)2 (50%)');
    expect(enps).toHaveTextContent('Passives (7–8)1 (25%)');
    expect(enps).toHaveTextContent('Detractors (0–6)1 (25%)');

    const text = screen.getByRole('article', { name: 'Question 3: Anything else?' });
    expect(
      within(text)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['fewer meetings', 'More focus']);
    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute(
      'href',
      `/api/loops/${LOOP}/results/csv?roundId=${R2}`,
    );
  });

  it('picks another round, and says why a round below its minimum shows nothing', async () => {
    const user = userEvent.setup();
    const message = 'This round closed with 2 responses, fewer than the 3 needed to show results';
    const asked = renderResults((roundId) =>
      roundId === R1
        ? {
            ...released,
            round: {
              ...round(R1, 1, { answered: 2 }),
              state: 'below-threshold',
              message,
              questions: [],
              followUps: [],
            },
          }
        : released,
    );
    await user.selectOptions(await screen.findByLabelText('Round'), R1);
    expect(await screen.findByText(say(message))).toBeInTheDocument();
    await waitFor(() => expect(asked).toContain(R1));
    expect(screen.queryByRole('link', { name: 'Export CSV' })).toBeNull();
    expect(screen.queryByRole('article')).toBeNull();
  });

  it('before the first round, says results come once it has opened', async () => {
    renderResults(() => ({ ...released, rounds: [], round: null }));
    expect(await screen.findByRole('heading', { name: 'No round yet' })).toBeInTheDocument();
  });
});
