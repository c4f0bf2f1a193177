import { HEALTH_CHECK_MESSAGES } from '@pulsecheck/shared/health-checks/messages';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import { renderRoutes, stubFetch } from '@/test/render';
import { say, t } from '@/lib/i18n';
import { ShareDialog } from './share-dialog';

const ID = '44444444-4444-4444-8444-444444444444';
const JOIN = `http://localhost/join/${ID}`;

function renderDialog(slack: { connected: boolean; channel: string }) {
  const fetch = stubFetch((_url, init) =>
    init?.method === 'POST' ? Response.json(slack) : Response.json(slack, { status: 200 }),
  );
  renderRoutes([
    {
      path: '/',
      element: (
        <>
          <Toaster />
          <ShareDialog open onOpenChange={() => {}} healthCheckId={ID} title="Team pulse" joinUrl={JOIN} />
        </>
      ),
    },
    { path: '/admin/account-settings/notifications', element: <p>notification settings</p> },
  ]);
  return fetch;
}

describe("Share dialog's Slack", () => {
  it("posts the invitation to the person's Slack channel when it is connected", async () => {
    const user = userEvent.setup();
    const fetch = renderDialog({ connected: true, channel: '#team' });
    const slack = screen.getByRole('button', { name: 'Slack' });
    await expect.poll(() => slack.hasAttribute('disabled')).toBe(false);
    await user.click(slack);
    expect(
      await screen.findByText(t(HEALTH_CHECK_MESSAGES.slackPosted, { channel: '#team' })),
    ).toBeInTheDocument();
    const posts = fetch.mock.calls.filter(([, init]) => init?.method === 'POST');
    expect(posts.map(([url]) => url)).toEqual([`/api/health-checks/${ID}/share/slack`]);
    expect(screen.queryByText(say(HEALTH_CHECK_MESSAGES.slackNotConnected), { exact: false })).toBeNull();
  });

  it('says Slack is not connected, copies the message instead, and links to the setting', async () => {
    const user = userEvent.setup();
    const fetch = renderDialog({ connected: false, channel: '' });
    expect(
      await screen.findByText(say(HEALTH_CHECK_MESSAGES.slackNotConnected), { exact: false }),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Slack' }));
    expect(await navigator.clipboard.readText()).toBe(
      t(HEALTH_CHECK_MESSAGES.slackInvitation, { title: 'Team pulse', joinUrl: JOIN }),
    );
    expect(fetch.mock.calls.filter(([, init]) => init?.method === 'POST')).toEqual([]);
    await user.click(screen.getByRole('link', { name: 'Open Notification settings' }));
    expect(await screen.findByText('notification settings')).toBeInTheDocument();
  });
});
