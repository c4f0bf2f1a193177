import type { CurrentUser } from '@pulsecheck/shared/auth/schemas';
import type { NotificationsResponse } from '@pulsecheck/shared/notifications/schemas';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { currentUser } from '@/test/fixtures';
import { renderRoutes, stubFetch } from '@/test/render';
import { PARTICIPANT_SETTINGS_PATH, ParticipantLayout } from './participant-layout';

/** The session fields the layout and the bell read. */
const participant = currentUser({
  id: 'u2',
  email: 'pat@example.com',
  name: 'Pat',
  role: null,
  activeWorkspaceId: null,
  canAdmin: false,
  home: '/dashboard',
});

const bell: NotificationsResponse = {
  items: [
    {
      id: 'n1',
      type: 'results-ready',
      message: 'Voting has started for "Sprint", and its results are ready',
      link: '/health-check/hc1/vote',
      healthCheckId: 'hc1',
      read: false,
      createdAt: new Date().toISOString(),
    },
  ],
  unread: 1,
};

function renderAt(path: string, session: Partial<CurrentUser>) {
  const routes = [
    {
      element: <ParticipantLayout />,
      children: [
        { path: '/dashboard', element: <h1>My Health Checks</h1> },
        { path: PARTICIPANT_SETTINGS_PATH, element: <h1>Notification Settings</h1> },
        { path: '/health-check/:id/vote', element: <h1>Voting</h1> },
      ],
    },
  ];
  return renderRoutes(routes, { at: path, seed: [[['session'], session]] }).router;
}

beforeEach(() => {
  stubFetch((url) =>
    url.endsWith('/api/notifications') ? Response.json(bell) : Response.json({ ok: true }),
  );
});

describe('ParticipantLayout', () => {
  it('frames the screen with the bell, the notification settings and the main landmark', async () => {
    const router = renderAt('/dashboard', participant);
    expect(within(screen.getByRole('main')).getByRole('heading', { name: 'My Health Checks' })).toBeVisible();
    const nav = within(screen.getByRole('navigation', { name: 'Account' }));
    expect(nav.queryByRole('link', { name: /Admin/ })).toBeNull();

    // The bell shows the unread notice; opening it and choosing the notice follows its link.
    expect(await nav.findByTestId('unread-count')).toHaveTextContent('1');
    await userEvent.click(nav.getByRole('button', { name: /Notifications/ }));
    const panel = within(screen.getByRole('region', { name: 'Your notifications' }));
    await userEvent.click(panel.getByText('Voting has started for "Sprint", and its results are ready'));
    expect(router.state.location.pathname).toBe('/health-check/hc1/vote');

    await userEvent.click(nav.getByRole('link', { name: /Notification settings/ }));
    expect(router.state.location.pathname).toBe(PARTICIPANT_SETTINGS_PATH);
    expect(screen.getByRole('heading', { name: 'Notification Settings' })).toBeVisible();
  });

  it('offers the admin area to those who have one', () => {
    renderAt('/dashboard', { ...participant, canAdmin: true, home: '/admin/dashboard' });
    expect(screen.getByRole('link', { name: /Admin/ })).toHaveAttribute('href', '/admin/dashboard');
  });
});
