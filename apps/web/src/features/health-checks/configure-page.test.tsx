import type { FollowUpCandidate } from '@pulsecheck/shared/action-items/schemas';
import { DEFAULT_DESCRIPTION, DEFAULT_SETTINGS } from '@pulsecheck/shared/health-checks/schemas';
import { HEALTH_CHECK_MESSAGES } from '@pulsecheck/shared/health-checks/messages';
import type { TemplateDetail } from '@pulsecheck/shared/templates/schemas';
import type { WorkspacesResponse } from '@pulsecheck/shared/workspaces/schemas';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { currentUser, oneWorkspace } from '@/test/fixtures';
import { Toaster } from '@/components/ui/toaster';
import { renderRoutes, stubFetch } from '@/test/render';
import { say, t } from '@/lib/i18n';
import { ConfigurePage } from './configure-page';

const WORKSPACE = '44444444-4444-4444-8444-444444444444';
const TEMPLATE = '55555555-5555-4555-8555-555555555555';
const COMPONENT = '66666666-6666-4666-8666-666666666666';

function renderConfigure(
  answer: (url: string) => Response,
  options: { noWorkspace?: boolean; mailEnabled?: boolean; followUps?: FollowUpCandidate[] } = {},
) {
  const fetch = stubFetch(answer);
  render(<Toaster />);
  const one = oneWorkspace(WORKSPACE, 'Launch Co');
  const workspaces: WorkspacesResponse = options.noWorkspace
    ? { workspaces: [], activeWorkspaceId: null }
    : one;
  const template: TemplateDetail = {
    id: TEMPLATE,
    title: 'Team Health',
    description: null,
    type: 'health-check',
    isGlobal: true,
    workspaceId: null,
    createdAt: '2026-11-01T00:00:00Z',
    canChange: false,
    components: [
      {
        id: COMPONENT,
        key: 'decisions',
        title: 'Decisions',
        description: null,
        category: 'Ways of working',
        orderIndex: 0,
        enabled: true,
        examples: [],
      },
    ],
  };
  renderRoutes(
    [
      { path: '/configure/:templateId', element: <ConfigurePage /> },
      { path: '/admin/workspaces', element: <h1>Workspaces</h1> },
    ],
    {
      at: `/configure/${TEMPLATE}`,
      seed: [
        [['workspaces'], workspaces],
        [['template', TEMPLATE], { template }],
        [['workspace', WORKSPACE, 'follow-up-actions'], { actions: options.followUps ?? [] }],
        [
          ['session'],
          currentUser({ activeWorkspaceId: WORKSPACE, mailEnabled: options.mailEnabled ?? true }),
        ],
      ],
    },
  );
  return fetch;
}

describe('configure and launch', () => {
  it('needs an enabled component and a title, says so in the banner and in place, and launches nothing', async () => {
    const user = userEvent.setup();
    const fetch = renderConfigure(() => Response.json({}));
    await user.clear(screen.getByLabelText('Title'));
    await user.click(screen.getByRole('switch', { name: 'Decisions' }));
    expect(screen.getByText('0 of 1 components enabled')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Launch' }));
    await user.click(screen.getByRole('button', { name: 'Launch Health Check' }));

    const alerts = await screen.findAllByRole('alert');
    expect(alerts.map((alert) => alert.textContent)).toEqual([
      say(HEALTH_CHECK_MESSAGES.titleRequired),
      say(HEALTH_CHECK_MESSAGES.titleRequired),
    ]);
    expect(screen.getByLabelText('Title')).toHaveAttribute('aria-invalid', 'true');
    await user.click(screen.getByRole('tab', { name: 'Components' }));
    expect(screen.getByText(say(HEALTH_CHECK_MESSAGES.noEnabledComponents))).toHaveAttribute('role', 'alert');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('sends the form with the workspace, template and launch key, and shows a failure in the banner', async () => {
    const user = userEvent.setup();
    const fetch = renderConfigure(() =>
      Response.json({ error: { code: 'internal', message: 'boom' } }, { status: 500 }),
    );
    await user.clear(screen.getByLabelText('Title'));
    await user.type(screen.getByLabelText('Title'), 'Q3 Health');
    await user.click(screen.getByRole('tab', { name: 'Team' }));
    await user.type(screen.getByLabelText('Team member email'), 'ana@example.com');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await user.click(screen.getByRole('tab', { name: 'Settings' }));
    await user.clear(screen.getByLabelText('Votes per person'));
    await user.type(screen.getByLabelText('Votes per person'), '7');
    await user.click(screen.getByRole('switch', { name: 'Enable comments' }));
    await user.click(screen.getByRole('tab', { name: 'Launch' }));
    expect(screen.getByText(/1 components · 1 team e-mails · minimum 3 responses/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Launch Health Check' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(say(HEALTH_CHECK_MESSAGES.launchFailed));
    const [, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    const { launchKey, ...body } = JSON.parse(init.body as string) as Record<string, unknown>;
    expect(body).toEqual({
      workspaceId: WORKSPACE,
      templateId: TEMPLATE,
      title: 'Q3 Health',
      description: t(DEFAULT_DESCRIPTION),
      settings: { ...DEFAULT_SETTINGS, votesPerPerson: 7, enableComments: false },
      enabledComponentIds: [COMPONENT],
      teamEmails: ['ana@example.com'],
      leaveOutActionItemIds: [],
    });
    expect(launchKey).toEqual(expect.any(String));
  });

  it('shows the done actions the check will ask about, by the shared rule, and sends those left out', async () => {
    const user = userEvent.setup();
    const action = (id: string, over: Partial<FollowUpCandidate> = {}): FollowUpCandidate => ({
      id,
      description: `Action ${id}`,
      status: 'completed',
      completedAt: '2026-11-01T00:00:00Z',
      componentKey: 'decisions',
      componentTitle: 'Decisions',
      ownerName: 'Olu Owner',
      asked: false,
      ...over,
    });
    const fetch = renderConfigure(
      () => Response.json({ error: { code: 'internal', message: 'boom' } }, { status: 500 }),
      {
        followUps: [
          action('a1'),
          action('a2'),
          action('other-area', { componentKey: 'c9', componentTitle: 'Other' }),
        ],
      },
    );
    await user.click(screen.getByRole('tab', { name: 'Launch' }));
    const first = screen.getByRole('checkbox', { name: 'Did "Action a1" help with Decisions?' });
    expect(first).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Did "Action a2" help with Decisions?' })).toBeChecked();
    expect(screen.queryByText(/Action other-area/)).not.toBeInTheDocument();
    await user.click(first);
    await user.click(screen.getByRole('button', { name: 'Launch Health Check' }));
    await screen.findByRole('alert');
    const [, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(
      (JSON.parse(init.body as string) as { leaveOutActionItemIds: string[] }).leaveOutActionItemIds,
    ).toEqual(['a1']);
  });

  const refusedLaunch = (workspacesAfter: WorkspacesResponse) => (url: string) =>
    url.endsWith('/api/workspaces')
      ? Response.json(workspacesAfter)
      : Response.json(
          // The code decides what the screen says, not the message text.
          { error: { code: 'workspace_not_found', message: 'Not found' } },
          { status: 404 },
        );

  it('a launch refused in a workspace the user is not a member of: the toast, then Workspaces', async () => {
    const user = userEvent.setup();
    renderConfigure(refusedLaunch(oneWorkspace(WORKSPACE, 'Launch Co')));
    await user.click(screen.getByRole('tab', { name: 'Launch' }));
    await user.click(screen.getByRole('button', { name: 'Launch Health Check' }));
    expect(await screen.findByRole('heading', { name: 'Workspaces' }, { timeout: 5000 })).toBeInTheDocument();
    expect(
      await screen.findByText('You must be a workspace member to create a health check'),
    ).toBeInTheDocument();
  });

  it('a launch after the workspace went (none left active): the toast asks to select one, then Workspaces', async () => {
    const user = userEvent.setup();
    renderConfigure(refusedLaunch({ workspaces: [], activeWorkspaceId: null }));
    await user.click(screen.getByRole('tab', { name: 'Launch' }));
    await user.click(screen.getByRole('button', { name: 'Launch Health Check' }));
    expect(await screen.findByRole('heading', { name: 'Workspaces' }, { timeout: 5000 })).toBeInTheDocument();
    expect(
      await screen.findByText('Please select a workspace before launching the health check'),
    ).toBeInTheDocument();
  });

  it('with no active workspace, redirects to /admin/workspaces with the toast', async () => {
    const fetch = renderConfigure(() => Response.json({}), { noWorkspace: true });
    expect(await screen.findByRole('heading', { name: 'Workspaces' }, { timeout: 5000 })).toBeInTheDocument();
    expect(await screen.findByText(say(HEALTH_CHECK_MESSAGES.selectWorkspaceFirst))).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Launch Health Check' })).not.toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
  });

  it("'Save as template' sends the name, description, settings and enabled components chosen here", async () => {
    const user = userEvent.setup();
    const fetch = renderConfigure(() => Response.json({ id: TEMPLATE }, { status: 201 }));
    await user.click(screen.getByRole('tab', { name: 'Settings' }));
    await user.click(screen.getByRole('switch', { name: 'Enable comments' }));
    await user.click(screen.getByRole('button', { name: 'Save as template' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save as template' });
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveValue('New Health Check');
    await user.clear(screen.getByRole('textbox', { name: 'Name' }));
    await user.click(screen.getByRole('button', { name: 'Save Template' }));
    expect(await screen.findByText(say(HEALTH_CHECK_MESSAGES.titleRequired))).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Our check');
    await user.click(screen.getByRole('button', { name: 'Save Template' }));
    await expect.poll(() => dialog.isConnected).toBe(false);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toMatch(/\/api\/templates\/health-checks$/);
    expect(JSON.parse(init.body as string)).toEqual({
      title: 'Our check',
      description: t(DEFAULT_DESCRIPTION),
      workspaceId: WORKSPACE,
      templateId: TEMPLATE,
      settings: { ...DEFAULT_SETTINGS, enableComments: false },
      enabledComponentIds: [COMPONENT],
    });
  });

  it("says on the Team tab that nobody is e-mailed when the server's e-mail is off", async () => {
    const user = userEvent.setup();
    renderConfigure(() => Response.json({}), { mailEnabled: false });
    await user.click(screen.getByRole('tab', { name: 'Team' }));
    expect(screen.getByText(say(HEALTH_CHECK_MESSAGES.teamMailOff))).toBeInTheDocument();
    expect(screen.queryByText(/is e-mailed the join link/)).not.toBeInTheDocument();
  });
});
