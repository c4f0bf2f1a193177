import { FOLLOW_UP_MESSAGES } from '@pulsecheck/shared/action-items/follow-up';
import type { RoundToAnswer } from '@pulsecheck/shared/loops/contract';
import { LOOP_MESSAGES } from '@pulsecheck/shared/loops/rules';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { renderRoutes, stubFetch } from '@/test/render';
import { LinkAnswerPage, RoundAnswerPage } from './answer-page';
import { say } from '@/lib/i18n';

const TOKEN = 'tok_abcdefghijklmnopqrstuvwxyz';
const ROUND = '88888888-8888-4888-8888-888888888888';
const Q = {
  scale: '11111111-1111-4111-8111-111111111111',
  enps: '22222222-2222-4222-8222-222222222222',
  text: '33333333-3333-4333-8333-333333333333',
};

const round = (overrides: Partial<RoundToAnswer> = {}): RoundToAnswer => ({
  loop: {
    id: '99999999-9999-4999-8999-999999999999',
    title: 'Weekly Pulse',
    description: '',
    anonymous: true,
  },
  workspaceName: 'Launch Co',
  round: { id: ROUND, number: 2, closesAt: '2026-11-27T09:00:00Z' },
  questions: [
    {
      id: Q.scale,
      kind: 'scale',
      text: 'How was your week?',
      lowLabel: 'Rough',
      highLabel: 'Great',
      shownIn: null,
    },
    {
      id: Q.enps,
      kind: 'enps',
      text: 'Would you recommend us?',
      lowLabel: null,
      highLabel: null,
      shownIn: null,
    },
    { id: Q.text, kind: 'text', text: 'Anything else?', lowLabel: null, highLabel: null, shownIn: null },
  ],
  followUps: [],
  state: 'open',
  message: null,
  branding: null,
  ...overrides,
});

type Call = { url: string; method: string; body: unknown };

/** A server for the answer routes: `reply` decides each POST; GETs answer the round. */
function serve(
  data: RoundToAnswer,
  reply: (call: Call) => Response = () => Response.json({ ok: true }, { status: 201 }),
) {
  const calls: Call[] = [];
  stubFetch((url, init) => {
    const method = init?.method ?? 'GET';
    const call = {
      url: new URL(url, 'http://x').pathname,
      method,
      body: init?.body ? (JSON.parse(init.body as string) as unknown) : null,
    };
    calls.push(call);
    return method === 'GET' ? Response.json(data) : reply(call);
  });
  return calls;
}

const group = (name: RegExp) => screen.getByRole('group', { name });
const posts = (calls: Call[]) => calls.filter((call) => call.method === 'POST');

afterEach(() => sessionStorage.clear());

describe("the loop organisation's branding", () => {
  it('shows its logo named after it and gives the buttons its accent colour, until the page goes', async () => {
    serve(
      round({
        branding: {
          organizationName: 'Teal Harbour',
          logoUrl: '/api/organization-logos/abc',
          accentColor: '#0f766e',
        },
      }),
    );
    const { router } = renderRoutes(
      [
        { path: '/loop-answer/:token', element: <LinkAnswerPage /> },
        { path: '/elsewhere', element: <p>Elsewhere</p> },
      ],
      { at: `/loop-answer/${TOKEN}` },
    );
    const logo = await screen.findByRole('img', { name: 'Teal Harbour logo' });
    expect(logo).toHaveAttribute('src', '/api/organization-logos/abc');
    expect(document.documentElement.style.getPropertyValue('--accent')).toBe('#0f766e');
    await act(() => router.navigate('/elsewhere'));
    await screen.findByText('Elsewhere');
    expect(document.documentElement.style.getPropertyValue('--accent')).toBe('');
  });

  it('shows no logo and keeps the Pulsecheck colour without branding', async () => {
    serve(round({ branding: { organizationName: 'Plain Works', logoUrl: null, accentColor: null } }));
    renderRoutes([{ path: '/loop-answer/:token', element: <LinkAnswerPage /> }], {
      at: `/loop-answer/${TOKEN}`,
    });
    await screen.findByRole('heading', { name: /Weekly Pulse/ });
    expect(screen.queryByRole('img', { name: /logo/ })).not.toBeInTheDocument();
    expect(document.documentElement.style.getPropertyValue('--accent')).toBe('');
  });
});

describe('answer page from the personal link', () => {
  // Three steps of a person on a phone (open, send, add the rest): more than the default 5 s on a busy machine.
  it(
    'opens with the value clicked in the e-mail chosen and records nothing until "Send my answer" is pressed',
    { timeout: 15_000 },
    async () => {
      const user = userEvent.setup();
      const calls = serve(round(), (call) =>
        call.url.endsWith('/quick')
          ? Response.json({ continuation: 'cont_0123456789abcdefghij' }, { status: 201 })
          : Response.json({ ok: true }),
      );
      const { router } = renderRoutes([{ path: '/loop-answer/:token', element: <LinkAnswerPage /> }], {
        at: `/loop-answer/${TOKEN}?answer=4`,
      });
      const send = await screen.findByRole('button', { name: 'Send my answer' });
      // Opening the link (as a mail scanner's browser does) only reads the round.
      expect(within(group(/How was your week/)).getByRole('radio', { name: '4' })).toBeChecked();
      expect(screen.getByText("Nothing is sent until you press 'Send my answer'.")).toBeInTheDocument();
      expect(send).toHaveAccessibleDescription("Nothing is sent until you press 'Send my answer'.");
      // Only the first question: one tap sends it.
      expect(screen.getAllByRole('group')).toHaveLength(1);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(posts(calls)).toEqual([]);
      expect(calls.map((call) => call.url)).toEqual([`/api/loop-answer/${TOKEN}`]);

      await user.click(send);
      expect(await screen.findByText(/Your answer 4 to the first question is recorded/)).toBeInTheDocument();
      expect(posts(calls)).toEqual([
        { url: `/api/loop-answer/${TOKEN}/quick`, method: 'POST', body: { value: 4 } },
      ]);
      // A reload does not show the choice again: it left the address, and the rest of the form stays.
      expect(router.state.location.search).toBe('');
      expect(within(group(/How was your week/)).getByRole('radio', { name: '4' })).toBeChecked();

      await user.click(within(group(/recommend/)).getByRole('radio', { name: '9' }));
      await user.type(screen.getByLabelText('Your answer to question 3 (optional)'), 'More focus time');
      await user.click(screen.getByRole('button', { name: 'Submit Answers' }));
      expect(await screen.findByRole('heading', { name: 'Thank you!' })).toBeInTheDocument();
      expect(posts(calls)[1]).toEqual({
        url: '/api/loop-responses/continue',
        method: 'POST',
        body: {
          continuation: 'cont_0123456789abcdefghij',
          answers: { [Q.scale]: 4, [Q.enps]: 9, [Q.text]: 'More focus time' },
        },
      });
    },
  );

  it('sends the value the person settled on, and thanks them when the loop has one question', async () => {
    const user = userEvent.setup();
    const calls = serve(round({ questions: round().questions.slice(0, 1) }), () =>
      Response.json({ continuation: 'cont_0123456789abcdefghij' }, { status: 201 }),
    );
    renderRoutes([{ path: '/loop-answer/:token', element: <LinkAnswerPage /> }], {
      at: `/loop-answer/${TOKEN}?answer=2`,
    });
    await screen.findByRole('button', { name: 'Send my answer' });
    await user.click(screen.getByRole('radio', { name: '5, Great' }));
    await user.click(screen.getByRole('button', { name: 'Send my answer' }));
    expect(await screen.findByRole('heading', { name: 'Thank you!' })).toBeInTheDocument();
    expect(posts(calls)).toEqual([
      { url: `/api/loop-answer/${TOKEN}/quick`, method: 'POST', body: { value: 5 } },
    ]);
  });

  it("asks every question when the clicked value is not one of the first question's", async () => {
    const calls = serve(round());
    renderRoutes([{ path: '/loop-answer/:token', element: <LinkAnswerPage /> }], {
      at: `/loop-answer/${TOKEN}?answer=9`,
    });
    await screen.findByRole('button', { name: 'Submit Answers' });
    expect(screen.getAllByRole('group')).toHaveLength(3);
    expect(screen.queryByRole('radio', { checked: true })).toBeNull();
    expect(posts(calls)).toEqual([]);
  });

  it('without a click, asks every question, requires the scale and score, and sends them', async () => {
    const user = userEvent.setup();
    const calls = serve(round());
    renderRoutes([{ path: '/loop-answer/:token', element: <LinkAnswerPage /> }], {
      at: `/loop-answer/${TOKEN}`,
    });
    await screen.findByRole('heading', { name: 'Weekly Pulse' });
    expect(screen.getByText(/Your answers are anonymous/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Submit Answers' }));
    const scale = group(/How was your week/);
    expect(within(scale).getByText(say(LOOP_MESSAGES.answerRequired))).toBeInTheDocument();
    expect(scale).toHaveFocus();
    expect(posts(calls)).toEqual([]);

    await user.click(screen.getByRole('radio', { name: '5, Great' }));
    await user.click(screen.getByRole('radio', { name: '0, Not at all likely' }));
    await user.click(screen.getByRole('button', { name: 'Submit Answers' }));
    await screen.findByRole('heading', { name: 'Thank you!' });
    expect(posts(calls)).toEqual([
      { url: `/api/loop-answer/${TOKEN}`, method: 'POST', body: { answers: { [Q.scale]: 5, [Q.enps]: 0 } } },
    ]);
  });

  it("asks the round's follow-ups after the questions, optional, and sends the answers given", async () => {
    const user = userEvent.setup();
    const FOLLOW_UP = '44444444-4444-4444-8444-444444444444';
    const calls = serve(round({ followUps: [{ id: FOLLOW_UP, question: 'Did "Shorter stand-ups" help?' }] }));
    renderRoutes([{ path: '/loop-answer/:token', element: <LinkAnswerPage /> }], {
      at: `/loop-answer/${TOKEN}`,
    });
    await screen.findByRole('heading', { name: say(FOLLOW_UP_MESSAGES.loopSectionTitle) });
    const followUp = group(/Shorter stand-ups/);
    expect(
      within(followUp)
        .getAllByRole('radio')
        .map((radio) => radio.closest('label')?.textContent),
    ).toEqual(['Yes', 'Partly', 'No', 'Too early to say']);
    await user.click(within(group(/How was your week/)).getByRole('radio', { name: '4' }));
    await user.click(within(group(/Would you recommend/)).getByRole('radio', { name: '7' }));
    await user.click(within(followUp).getByRole('radio', { name: 'Partly' }));
    await user.click(screen.getByRole('button', { name: 'Submit Answers' }));
    await screen.findByRole('heading', { name: 'Thank you!' });
    expect(posts(calls)).toEqual([
      {
        url: `/api/loop-answer/${TOKEN}`,
        method: 'POST',
        body: { answers: { [Q.scale]: 4, [Q.enps]: 7 }, followUps: { [FOLLOW_UP]: 'partly' } },
      },
    ]);
  });

  it('says so when the round takes no answers, and records no click then', async () => {
    const calls = serve(round({ state: 'round-closed', message: LOOP_MESSAGES.roundClosed }));
    renderRoutes([{ path: '/loop-answer/:token', element: <LinkAnswerPage /> }], {
      at: `/loop-answer/${TOKEN}?answer=3`,
    });
    expect(await screen.findByRole('heading', { name: say(LOOP_MESSAGES.roundClosed) })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Submit Answers' })).toBeNull();
    expect(posts(calls)).toEqual([]);
  });

  it('shows the refusal of a one-click answer (already answered) instead of a form', async () => {
    const user = userEvent.setup();
    const calls = serve(round(), () =>
      Response.json(
        { error: { code: 'already_answered', message: LOOP_MESSAGES.alreadyAnswered } },
        { status: 409 },
      ),
    );
    renderRoutes([{ path: '/loop-answer/:token', element: <LinkAnswerPage /> }], {
      at: `/loop-answer/${TOKEN}?answer=2`,
    });
    await user.click(await screen.findByRole('button', { name: 'Send my answer' }));
    expect(
      await screen.findByRole('heading', { name: say(LOOP_MESSAGES.alreadyAnswered) }),
    ).toBeInTheDocument();
    expect(posts(calls)).toHaveLength(1);
  });

  it('says a forged or mistyped link is not valid', async () => {
    stubFetch(() =>
      Response.json(
        { error: { code: 'not_found', message: 'This answer link is not valid' } },
        { status: 404 },
      ),
    );
    renderRoutes([{ path: '/loop-answer/:token', element: <LinkAnswerPage /> }], { at: `/loop-answer/nope` });
    expect(await screen.findByRole('heading', { name: 'This answer link is not valid' })).toBeInTheDocument();
  });
});

describe('answer page of a signed-in member', () => {
  it('answers by round id, and a paused loop says when answers open again', async () => {
    const user = userEvent.setup();
    const calls = serve(round(), () =>
      Response.json({ error: { code: 'loop_paused', message: LOOP_MESSAGES.loopPaused } }, { status: 409 }),
    );
    renderRoutes([{ path: '/loop-rounds/:roundId', element: <RoundAnswerPage /> }], {
      at: `/loop-rounds/${ROUND}`,
    });
    await screen.findByRole('heading', { name: 'Weekly Pulse' });
    await user.click(within(group(/How was your week/)).getByRole('radio', { name: '3' }));
    await user.click(within(group(/recommend/)).getByRole('radio', { name: '8' }));
    await user.click(screen.getByRole('button', { name: 'Submit Answers' }));
    expect(await screen.findByRole('heading', { name: say(LOOP_MESSAGES.loopPaused) })).toBeInTheDocument();
    expect(screen.getByText(/once the loop resumes/)).toBeInTheDocument();
    await waitFor(() => expect(posts(calls)[0]?.url).toBe(`/api/loop-rounds/${ROUND}/answer`));
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/dashboard');
  });
});

describe('a question without a translation into the reader’s language', () => {
  it('shows the loop’s words marked with their language, and a note saying so; a translated one has none', async () => {
    const data = round();
    serve({
      ...data,
      questions: [
        { ...data.questions[0]!, text: 'Wie war Ihre Woche?', shownIn: 'de' },
        ...data.questions.slice(1),
      ],
    });
    renderRoutes([{ path: '/loop-answer/:token', element: <LinkAnswerPage /> }], {
      at: `/loop-answer/${TOKEN}`,
    });
    const german = await screen.findByText('Wie war Ihre Woche?');
    expect(german).toHaveAttribute('lang', 'de');
    expect(
      within(group(/Wie war Ihre Woche/)).getByText(
        'In German, the language the loop is written in: there is no translation into yours.',
      ),
    ).toBeInTheDocument();
    // The note is not part of the question's name.
    expect(group(/Wie war Ihre Woche/)).toHaveAccessibleName('1. Wie war Ihre Woche?');
    expect(within(group(/Would you recommend us/)).queryByText(/no translation/)).toBeNull();
  });
});
