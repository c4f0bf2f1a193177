import {
  TRACKER_MESSAGES,
  TRACKER_PROBLEMS,
  TRACKER_WORDS,
  type TrackerConnection,
} from '@pulsecheck/shared/trackers/rules';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { say, t } from '@/lib/i18n';
import { renderRoutes, stubFetch } from '@/test/render';
import { IntegrationsCard } from './integrations-card';

const WORKSPACE = '00000000-0000-4000-8000-0000000000aa';
const connected: TrackerConnection = {
  id: '00000000-0000-4000-8000-0000000000bb',
  kind: 'github',
  label: 'GitHub',
  account: 'octo-admin',
  target: 'github.com',
  closeMarksDone: true,
  webhookUrl:
    'https://pulse.example.com/api/tracker-connections/00000000-0000-4000-8000-0000000000bb/webhook',
  webhookSecretSaved: true,
  problem: null,
  problemAt: null,
  lastPolledAt: null,
  createdAt: '2026-11-28T12:00:00.000Z',
};

const renderCard = () =>
  renderRoutes([{ path: '/', element: <IntegrationsCard workspaceId={WORKSPACE} workspaceName="Acme" /> }]);

describe('the Integrations card', () => {
  it('shows a refused token at its field, then who the token acts as and the webhook secret once', async () => {
    const user = userEvent.setup();
    let connection: TrackerConnection | null = null;
    const sent: unknown[] = [];
    stubFetch((_url, init) => {
      if (init?.method === 'PUT') {
        const body = JSON.parse(init.body as string) as { token: string };
        sent.push(body);
        if (body.token !== 'github_pat_good')
          return Response.json(
            {
              error: {
                code: 'invalid',
                message: say(TRACKER_WORDS.github.refusedToken),
                fields: { token: say(TRACKER_WORDS.github.refusedToken) },
              },
            },
            { status: 400 },
          );
        connection = connected;
        return Response.json({
          connection,
          webhookSecret: 'secret-shown-once',
          message: t(TRACKER_MESSAGES.connected, { account: 'octo-admin', target: 'github.com' }),
        });
      }
      return Response.json({ connection });
    });
    renderCard();
    expect(await screen.findByText(say(TRACKER_MESSAGES.notConnected))).toBeVisible();
    // Only trackers that are finished are offered.
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'GitHub',
      'GitLab',
      'Linear',
      'Jira',
    ]);
    await user.type(screen.getByLabelText('Token'), 'github_pat_bad');
    await user.click(screen.getByRole('button', { name: 'Connect' }));
    expect(await screen.findByText(say(TRACKER_WORDS.github.refusedToken))).toBeVisible();
    expect(screen.getByLabelText('Token')).toHaveAttribute('aria-invalid', 'true');

    await user.clear(screen.getByLabelText('Token'));
    await user.type(screen.getByLabelText('Token'), 'github_pat_good{Enter}');
    expect(await screen.findByText('Connected as octo-admin to github.com')).toBeVisible();
    expect(await screen.findByTestId('tracker-webhook-secret')).toHaveTextContent('secret-shown-once');
    expect(screen.getByTestId('tracker-webhook-url')).toHaveTextContent(connected.webhookUrl);
    expect(screen.getByLabelText('Token')).toHaveValue('');
    expect(sent).toEqual([
      { kind: 'github', baseUrl: '', token: 'github_pat_bad', closeMarksDone: true },
      { kind: 'github', baseUrl: '', token: 'github_pat_good', closeMarksDone: true },
    ]);
  });

  it("asks for GitLab's token and address in GitLab's words, and sends its kind", async () => {
    const user = userEvent.setup();
    const sent: unknown[] = [];
    stubFetch((_url, init) => {
      if (init?.method === 'PUT') sent.push(JSON.parse(init.body as string));
      return Response.json({ connection: null });
    });
    renderCard();
    await user.selectOptions(await screen.findByLabelText('Tracker'), 'gitlab');
    expect(screen.getByText(say(TRACKER_WORDS.gitlab.tokenHelp))).toBeVisible();
    expect(screen.getByText(say(TRACKER_WORDS.gitlab.baseUrlHelp))).toBeVisible();
    expect(screen.queryByText(say(TRACKER_WORDS.github.tokenHelp))).toBeNull();
    await user.type(screen.getByLabelText('Token'), 'glpat-good{Enter}');
    await vi.waitFor(() =>
      expect(sent).toEqual([{ kind: 'gitlab', baseUrl: '', token: 'glpat-good', closeMarksDone: true }]),
    );
  });

  it("asks for Linear's signing secret, which Linear makes, and saves it", async () => {
    const user = userEvent.setup();
    let connection: TrackerConnection = {
      ...connected,
      kind: 'linear',
      label: 'Linear',
      account: 'Ada Lovelace (Acme)',
      target: 'linear.app',
      webhookSecretSaved: false,
    };
    const patched: unknown[] = [];
    stubFetch((_url, init) => {
      if (init?.method === 'PATCH') {
        patched.push(JSON.parse(init.body as string));
        connection = { ...connection, webhookSecretSaved: true };
      }
      return Response.json({ connection });
    });
    renderCard();
    expect(await screen.findByText(say(TRACKER_WORDS.linear.webhookHelp))).toBeVisible();
    expect(screen.getByTestId('tracker-signing-secret-state')).toHaveTextContent(
      say(TRACKER_MESSAGES.signingSecretMissing),
    );
    await user.click(screen.getByRole('button', { name: say(TRACKER_MESSAGES.signingSecretSave) }));
    expect(await screen.findByText(say(TRACKER_MESSAGES.signingSecretRequired))).toBeVisible();
    await user.type(screen.getByLabelText(say(TRACKER_MESSAGES.signingSecret)), 'lin_wh_secret{Enter}');
    expect(await screen.findByText(say(TRACKER_MESSAGES.signingSecretSaved))).toBeVisible();
    expect(patched).toEqual([{ webhookSecret: 'lin_wh_secret' }]);
  });

  it('asks Jira for its address and, for Jira Cloud, the account e-mail, and sends them with the token', async () => {
    const user = userEvent.setup();
    const sent: unknown[] = [];
    let connection: TrackerConnection | null = null;
    stubFetch((_url, init) => {
      if (init?.method === 'PUT') {
        sent.push(JSON.parse(init.body as string));
        connection = {
          ...connected,
          kind: 'jira',
          label: 'Jira',
          account: 'Pulse Bot',
          target: 'acme.atlassian.net',
        };
        return Response.json({
          connection,
          webhookSecret: 'secret-shown-once',
          message: t(TRACKER_MESSAGES.connected, { account: 'Pulse Bot', target: 'acme.atlassian.net' }),
        });
      }
      return Response.json({ connection });
    });
    renderCard();
    await screen.findByText(say(TRACKER_MESSAGES.notConnected));
    expect(screen.queryByLabelText(say(TRACKER_MESSAGES.emailLabel))).toBeNull();
    await user.selectOptions(screen.getByLabelText('Tracker'), 'jira');
    const jira = TRACKER_WORDS.jira;
    expect(screen.getByLabelText(say(jira.baseUrlLabel))).toHaveAttribute(
      'placeholder',
      say(jira.baseUrlPlaceholder),
    );
    await user.type(screen.getByLabelText(say(jira.baseUrlLabel)), 'https://acme.atlassian.net');
    await user.type(screen.getByLabelText(say(TRACKER_MESSAGES.emailLabel)), 'bot@acme.example');
    await user.type(screen.getByLabelText('Token'), 'ATATT-token{Enter}');
    expect(await screen.findByText('Connected as Pulse Bot to acme.atlassian.net')).toBeVisible();
    expect(screen.getByText(say(jira.webhookHelp))).toBeVisible();
    expect(sent).toEqual([
      {
        kind: 'jira',
        baseUrl: 'https://acme.atlassian.net',
        email: 'bot@acme.example',
        token: 'ATATT-token',
        closeMarksDone: true,
      },
    ]);
  });

  it('shows the last failure with what to do', async () => {
    stubFetch(() => Response.json({ connection: { ...connected, problem: TRACKER_PROBLEMS.credentials } }));
    renderCard();
    // The answer carries the problem's key; the card says it in the app's language.
    expect(await screen.findByRole('alert')).toHaveTextContent(say(TRACKER_PROBLEMS.credentials));
  });
});
