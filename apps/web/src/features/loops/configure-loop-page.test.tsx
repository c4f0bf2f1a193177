import { FOLLOW_UP_MESSAGES } from '@pulsecheck/shared/action-items/follow-up';
import type { LoopDetail } from '@pulsecheck/shared/loops/contract';
import { LOOP_LINKS } from '@pulsecheck/shared/loops/links';
import { messageWith } from '@pulsecheck/shared/i18n/message';
import { LOOP_MESSAGES } from '@pulsecheck/shared/loops/rules';
import type { LaunchLoop } from '@pulsecheck/shared/loops/schemas';
import type { TemplateDetail } from '@pulsecheck/shared/templates/schemas';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { currentUser, oneWorkspace } from '@/test/fixtures';
import { renderRoutes, stubFetch } from '@/test/render';
import { ConfigureLoopPage } from './configure-loop-page';
import { say, t } from '@/lib/i18n';

const WORKSPACE = '44444444-4444-4444-8444-444444444444';
const TEMPLATE = '55555555-5555-4555-8555-555555555555';
const LOOP = '77777777-7777-4777-8777-777777777777';
const MEMBERS = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222'];

const workspaces = oneWorkspace(WORKSPACE, 'Launch Co');

const template: TemplateDetail = {
  id: TEMPLATE,
  title: 'Weekly Pulse',
  description: 'How the week went',
  type: 'loop',
  isGlobal: true,
  workspaceId: null,
  createdAt: '2026-11-01T00:00:00Z',
  canChange: false,
  components: [],
  loop: {
    title: 'Weekly Pulse',
    description: 'How the week went',
    questions: [
      { key: 'wp1', kind: 'scale', text: 'How was your week?', lowLabel: 'Rough', highLabel: 'Great' },
      { key: 'wp2', kind: 'text', text: 'One thing to change?' },
    ],
    defaults: {
      cadence: 'weekly',
      weekday: 'friday',
      time: '14:00',
      roundDays: 3,
      anonymous: true,
      minResponses: 3,
      reminder: true,
    },
  },
};

const member = (id: string, name: string) => ({
  id,
  userId: `u-${name}`,
  name,
  email: `${name.toLowerCase()}@example.com`,
  role: null,
  access: 'member' as const,
  status: 'active' as const,
  department: null,
  avatarUrl: null,
  invitation: null,
});

function renderConfigure(
  at: string,
  answer: (url: string, init?: RequestInit) => Response,
  options: { mailEnabled?: boolean } = {},
) {
  const fetch = stubFetch(answer);
  const { router } = renderRoutes(
    [
      { path: '/admin/configure-loop/:loopId', element: <ConfigureLoopPage /> },
      { path: '/admin/completion-status/:loopId', element: <h1>Completion Status</h1> },
    ],
    {
      at,
      seed: [
        [['workspaces'], workspaces],
        [['template', TEMPLATE], { template }],
        [
          ['session'],
          currentUser({ activeWorkspaceId: WORKSPACE, mailEnabled: options.mailEnabled ?? true }),
        ],
        [
          ['team', WORKSPACE],
          {
            workspace: { id: WORKSPACE, name: 'Launch Co' },
            canManage: true,
            members: [member(MEMBERS[0]!, 'Ana'), member(MEMBERS[1]!, 'Bo')],
          },
        ],
      ],
    },
  );
  return { fetch, router };
}

const question = (n: number) => screen.getByRole('group', { name: `Question ${n}` });
const launchBody = (fetch: ReturnType<typeof stubFetch>) => {
  const call = fetch.mock.calls.find(
    ([url, init]) => (url as string).endsWith('/api/loops') && init?.method === 'POST',
  );
  return call ? (JSON.parse(call[1]?.body as string) as LaunchLoop) : undefined;
};

describe('Configure Loop', () => {
  it('starts from a template: its questions and defaults, the browser’s time zone, start now, and launches', async () => {
    const user = userEvent.setup();
    const { fetch, router } = renderConfigure(`/admin/configure-loop/new?template=${TEMPLATE}`, () =>
      Response.json(
        { id: LOOP, firstRoundAt: '2026-11-25T10:00:00Z', startedNow: true, mail: 'sending' },
        { status: 201 },
      ),
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Configure Loop' })).toBeInTheDocument();
    expect(screen.getByLabelText('Title')).toHaveValue('Weekly Pulse');
    expect(within(question(1)).getByLabelText('Wording')).toHaveValue('How was your week?');
    expect(within(question(1)).getByLabelText('Label of 5 (high end)')).toHaveValue('Great');
    expect(within(question(2)).getByLabelText('Kind')).toHaveValue('text');
    expect(screen.getByLabelText('Weekday')).toHaveValue('friday');
    expect(screen.getByLabelText('Time zone')).toHaveValue(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(screen.getByRole('switch', { name: 'Anonymous answers' })).toBeChecked();
    expect(screen.getByLabelText('Minimum responses')).toHaveValue(3);
    expect(screen.getByTestId('first-round')).toHaveTextContent('As soon as you launch');
    // The preview shows the questions as people answer them, with nothing to send.
    await user.click(screen.getByText('Preview what people answer'));
    const preview = screen.getByRole('group', { name: '1. How was your week?' });
    await user.click(within(preview).getByRole('radio', { name: '5, Great' }));
    expect(within(preview).getByRole('radio', { name: '5, Great' })).toBeChecked();
    expect(screen.getByRole('group', { name: '2. One thing to change? (optional)' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: say(LOOP_MESSAGES.launch) }));
    await waitFor(() => expect(router.state.location.pathname).toBe(LOOP_LINKS.completionStatus(LOOP)));
    const body = launchBody(fetch);
    expect(body).toMatchObject({
      title: 'Weekly Pulse',
      questions: [
        { kind: 'scale', text: 'How was your week?', lowLabel: 'Rough', highLabel: 'Great' },
        { kind: 'text', text: 'One thing to change?' },
      ],
      audience: { kind: 'all' },
      cadence: 'weekly',
      weekday: 'friday',
      time: '14:00',
      anonymous: true,
      minResponses: 3,
      start: 'now',
      workspaceId: WORKSPACE,
      templateId: TEMPLATE,
    });
    // The template's keys are not the loop's.
    expect(body?.questions[0]).not.toHaveProperty('key');
    expect(body?.launchKey.length).toBeGreaterThanOrEqual(8);
  });

  it('from scratch, says every problem in the shared words and sends nothing', async () => {
    const user = userEvent.setup();
    const { fetch } = renderConfigure('/admin/configure-loop/new', () => Response.json({}));
    await user.clear(screen.getByLabelText('Minimum responses'));
    await user.type(screen.getByLabelText('Minimum responses'), '2');
    await user.click(screen.getByLabelText('Chosen members'));
    await user.click(screen.getByRole('button', { name: say(LOOP_MESSAGES.launch) }));

    expect(await screen.findByText(say(LOOP_MESSAGES.titleRequired))).toBeInTheDocument();
    expect(within(question(1)).getByText(say(LOOP_MESSAGES.questionRequired))).toBeInTheDocument();
    expect(screen.getByText(say(LOOP_MESSAGES.minResponsesAnonymous))).toBeInTheDocument();
    expect(screen.getByText(say(LOOP_MESSAGES.audienceEmpty))).toBeInTheDocument();
    expect(launchBody(fetch)).toBeUndefined();
  });

  it('builds questions: add, change the kind, reorder by keyboard with the focus kept, remove', async () => {
    const user = userEvent.setup();
    renderConfigure('/admin/configure-loop/new', () => Response.json({}));
    await user.type(within(question(1)).getByLabelText('Wording'), 'First');
    await user.click(screen.getByRole('button', { name: 'Add Question' }));
    await user.type(within(question(2)).getByLabelText('Wording'), 'Second');
    await user.selectOptions(within(question(2)).getByLabelText('Kind'), 'enps');
    expect(within(question(2)).getByText(/Not at all likely/)).toBeInTheDocument();
    expect(within(question(2)).queryByLabelText('Label of 1 (low end)')).toBeNull();
    expect(within(question(2)).getByLabelText('Wording')).toHaveValue('Second');

    screen.getByRole('button', { name: 'Move question 2 up' }).focus();
    await user.keyboard('{Enter}');
    expect(within(question(1)).getByLabelText('Wording')).toHaveValue('Second');
    expect(within(question(2)).getByLabelText('Wording')).toHaveValue('First');
    // The moved question is now first: its Up is disabled, so the focus lands on its Down.
    expect(screen.getByRole('button', { name: 'Move question 1 down' })).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Remove question 1' }));
    expect(screen.queryByRole('group', { name: 'Question 2' })).toBeNull();
    expect(within(question(1)).getByLabelText('Wording')).toHaveValue('First');
    expect(screen.getByRole('button', { name: 'Remove question 1' })).toBeDisabled();
    expect(screen.getByText('1 of 10 questions')).toBeInTheDocument();
  });

  it('translates a question: add, checked as the wording is, edit, remove, by keyboard; the launch sends them', async () => {
    const user = userEvent.setup();
    const { fetch } = renderConfigure(`/admin/configure-loop/new?template=${TEMPLATE}`, () =>
      Response.json({ id: LOOP, firstRoundAt: '2026-11-27T09:00:00Z', startedNow: true, mail: 'sending' }),
    );
    expect(await screen.findByLabelText('Language of the questions')).toHaveValue('en');
    const first = within(question(1));
    await user.click(first.getByRole('button', { name: 'Add a translation of question 1' }));
    const form = within(screen.getByRole('group', { name: 'Translation of question 1' }));
    // The loop's own language is not offered.
    expect(form.queryByRole('option', { name: 'English' })).toBeNull();
    await user.selectOptions(form.getByLabelText('Language'), 'de');
    await user.type(form.getByLabelText('Wording in German'), 'Wie war Ihre Woche?{Enter}');
    // Enter saves the translation only, and the shared rules say what is missing.
    expect(form.getAllByText(say(LOOP_MESSAGES.scaleLabelRequired))).toHaveLength(2);
    await user.type(form.getByLabelText('Label of 1 in German'), 'Schlecht');
    await user.type(form.getByLabelText('Label of 5 in German'), 'Super{Enter}');
    const list = within(first.getByRole('list', { name: 'Translations of question 1' }));
    expect(list.getByText('Wie war Ihre Woche?')).toHaveAttribute('lang', 'de');
    await waitFor(() =>
      expect(first.getByRole('button', { name: 'Add a translation of question 1' })).toHaveFocus(),
    );

    await user.click(list.getByRole('button', { name: 'Edit the German translation of question 1' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('group', { name: 'Translation of question 1' })).toBeNull();
    await waitFor(() =>
      expect(list.getByRole('button', { name: 'Edit the German translation of question 1' })).toHaveFocus(),
    );

    await user.click(first.getByRole('button', { name: 'Add a translation of question 1' }));
    const french = within(screen.getByRole('group', { name: 'Translation of question 1' }));
    expect(french.queryByRole('option', { name: 'German' })).toBeNull();
    await user.selectOptions(french.getByLabelText('Language'), 'fr');
    await user.type(french.getByLabelText('Wording in French'), 'Votre semaine ?');
    await user.type(french.getByLabelText('Label of 1 in French'), 'Difficile');
    await user.type(french.getByLabelText('Label of 5 in French'), 'Excellente');
    await user.click(french.getByRole('button', { name: 'Save translation' }));
    await user.click(list.getByRole('button', { name: 'Remove the French translation of question 1' }));

    await user.click(screen.getByRole('button', { name: say(LOOP_MESSAGES.launch) }));
    await waitFor(() => expect(launchBody(fetch)).toBeDefined());
    expect(launchBody(fetch)).toMatchObject({
      language: 'en',
      questions: [
        { translations: { de: { text: 'Wie war Ihre Woche?', lowLabel: 'Schlecht', highLabel: 'Super' } } },
        { kind: 'text' },
      ],
    });
    expect(launchBody(fetch)?.questions[0]?.translations).not.toHaveProperty('fr');
    // Much typing: more than the default 5 s when the machine is busy.
  }, 15_000);

  it('chooses members, shows the first round of a date in the loop’s zone, and puts server errors on the form', async () => {
    const user = userEvent.setup();
    const { fetch } = renderConfigure(`/admin/configure-loop/new?template=${TEMPLATE}`, () =>
      Response.json(
        {
          error: {
            code: 'invalid',
            message: 'Check the highlighted fields',
            fields: { start: LOOP_MESSAGES.firstRoundPast },
          },
        },
        { status: 400 },
      ),
    );
    await user.selectOptions(screen.getByLabelText('Time zone'), 'Europe/Berlin');
    await user.selectOptions(screen.getByLabelText('Weekday'), 'monday');
    await user.clear(screen.getByLabelText('Time'));
    await user.type(screen.getByLabelText('Time'), '09:00');
    await user.click(screen.getByLabelText('On the first scheduled day from a date'));
    await user.type(screen.getByLabelText('First round date'), '2099-01-01');
    // 1 January 2099 is a Thursday: the first Monday on or after it is 5 January.
    expect(screen.getByTestId('first-round')).toHaveTextContent('Monday 5 January 2099 at 09:00');
    expect(screen.getByTestId('first-round')).toHaveTextContent('Thursday 8 January 2099 at 09:00');

    await user.click(screen.getByLabelText('Chosen members'));
    await user.click(screen.getByRole('checkbox', { name: /Ana/ }));
    await user.click(screen.getByRole('checkbox', { name: /Bo/ }));
    await user.click(screen.getByRole('button', { name: say(LOOP_MESSAGES.launch) }));
    // Two members, fewer than the three responses results need: said before anything is sent.
    expect(
      await screen.findByText(t(LOOP_MESSAGES.audienceBelowMinimum, { count: 2, minResponses: 3 })),
    ).toBeInTheDocument();
    expect(launchBody(fetch)).toBeUndefined();

    await user.click(screen.getByRole('switch', { name: 'Anonymous answers' }));
    await user.clear(screen.getByLabelText('Minimum responses'));
    await user.type(screen.getByLabelText('Minimum responses'), '2');
    await user.click(screen.getByRole('button', { name: say(LOOP_MESSAGES.launch) }));
    expect(await screen.findByText(say(LOOP_MESSAGES.firstRoundPast))).toBeInTheDocument();
    expect(launchBody(fetch)).toMatchObject({
      audience: { kind: 'members', memberIds: MEMBERS },
      anonymous: false,
      minResponses: 2,
      timeZone: 'Europe/Berlin',
      start: '2099-01-01',
    });
  });

  it('says before launch when the server sends no e-mail, so nobody expects one', async () => {
    renderConfigure('/admin/configure-loop/new', () => Response.json({}), { mailEnabled: false });
    expect(await screen.findByText(/E-mail is switched off on this server/)).toBeInTheDocument();
    expect(screen.getByText(/answer each round from their dashboard and the bell/)).toBeInTheDocument();
  });

  it('saves the questions and settings as a workspace template, without the first round or audience', async () => {
    const user = userEvent.setup();
    const { fetch } = renderConfigure(`/admin/configure-loop/new?template=${TEMPLATE}`, () =>
      Response.json({ id: LOOP }, { status: 201 }),
    );
    await user.clear(screen.getByLabelText('Title'));
    await user.type(screen.getByLabelText('Title'), 'Our Friday Pulse');
    await user.click(screen.getByRole('button', { name: 'Save as Template' }));
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    const [url, init] = fetch.mock.calls[0]!;
    expect(url as string).toMatch(/\/api\/templates$/);
    expect(JSON.parse(init?.body as string)).toEqual({
      workspaceId: WORKSPACE,
      template: {
        title: 'Our Friday Pulse',
        language: 'en',
        description: 'How the week went',
        questions: [
          { kind: 'scale', text: 'How was your week?', lowLabel: 'Rough', highLabel: 'Great' },
          { kind: 'text', text: 'One thing to change?' },
        ],
        defaults: {
          cadence: 'weekly',
          weekday: 'friday',
          time: '14:00',
          roundDays: 3,
          anonymous: true,
          minResponses: 3,
          reminder: true,
        },
      },
    });
  });

  it('edits a loop: keeps question ids, locks anonymity once answered, sends only the definition, shows a refusal', async () => {
    const user = userEvent.setup();
    const QUESTION = '66666666-6666-4666-8666-666666666666';
    const loop: LoopDetail = {
      id: LOOP,
      workspace: { id: WORKSPACE, name: 'Launch Co' },
      title: 'Weekly Pulse',
      description: '',
      status: 'active',
      language: 'en',
      questions: [
        {
          id: QUESTION,
          kind: 'scale',
          text: 'How was your week?',
          lowLabel: 'Rough',
          highLabel: 'Great',
          shownIn: null,
          translations: {},
        },
      ],
      audience: { kind: 'all' },
      cadence: 'weekly',
      weekday: 'monday',
      time: '09:00',
      timeZone: 'Asia/Tokyo',
      roundDays: 3,
      anonymous: true,
      minResponses: 4,
      reminder: true,
      followUpActions: false,
      schedule: 'Every Monday at 09:00 (Asia/Tokyo)',
      nextRoundAt: '2026-11-30T00:00:00Z',
      currentRound: null,
      roundCount: 2,
      hasAnswers: true,
      templateId: null,
      createdAt: '2026-11-01T00:00:00Z',
      completedAt: null,
      canChange: true,
    };
    const puts: unknown[] = [];
    stubFetch((url, init) => {
      if (init?.method === 'PUT') {
        puts.push(JSON.parse(init.body as string));
        return Response.json(
          {
            error: {
              code: 'conflict',
              message: LOOP_MESSAGES.settingsOnlyStricter,
              fields: { minResponses: messageWith(LOOP_MESSAGES.minResponsesOnlyRises, { count: 4 }) },
            },
          },
          { status: 409 },
        );
      }
      return Response.json({ loop });
    });
    renderRoutes([{ path: '/admin/configure-loop/:loopId', element: <ConfigureLoopPage /> }], {
      at: `/admin/configure-loop/${LOOP}`,
      seed: [
        [
          ['team', WORKSPACE],
          { workspace: { id: WORKSPACE, name: 'Launch Co' }, canManage: true, members: [] },
        ],
      ],
    });
    expect(await screen.findByLabelText('Title')).toHaveValue('Weekly Pulse');
    expect(screen.getByLabelText('Time zone')).toHaveValue('Asia/Tokyo');
    expect(screen.getByRole('switch', { name: 'Anonymous answers' })).toBeDisabled();
    expect(screen.queryByRole('group', { name: 'When the first round opens' })).toBeNull();
    await user.type(within(question(1)).getByLabelText('Wording'), ' overall');
    await user.clear(screen.getByLabelText('Minimum responses'));
    await user.type(screen.getByLabelText('Minimum responses'), '3');
    // 'Follow-up on actions' starts as the loop has it (off) and is sent as switched.
    const followUps = screen.getByRole('switch', { name: say(FOLLOW_UP_MESSAGES.loopSwitch) });
    expect(followUps).not.toBeChecked();
    await user.click(followUps);
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    expect(await screen.findByText(t(LOOP_MESSAGES.minResponsesOnlyRises, { count: 4 }))).toBeInTheDocument();
    expect(screen.getAllByText(new RegExp(say(LOOP_MESSAGES.settingsOnlyStricter))).length).toBeGreaterThan(
      0,
    );
    expect(puts).toEqual([
      {
        title: 'Weekly Pulse',
        language: 'en',
        description: '',
        questions: [
          {
            id: QUESTION,
            kind: 'scale',
            text: 'How was your week? overall',
            lowLabel: 'Rough',
            highLabel: 'Great',
          },
        ],
        audience: { kind: 'all' },
        cadence: 'weekly',
        weekday: 'monday',
        time: '09:00',
        timeZone: 'Asia/Tokyo',
        roundDays: 3,
        anonymous: true,
        minResponses: 3,
        reminder: true,
        followUpActions: true,
      },
    ]);
  });
});
