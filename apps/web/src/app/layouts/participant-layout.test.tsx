import type { CurrentUser } from '@pulsecheck/shared/auth/schemas';
import type { NotificationsResponse } from '@pulsecheck/shared/notifications/schemas';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PARTICIPANT_SETTINGS_PATH, ParticipantLayout } from './participant-layout';

/** The session fields the layout and the bell read. */
const participant = {
  id: 'u2',
  email: 'pat@example.com',
  name: 'Pat',
  role: null,
  setupStatus: 'completed',
  pendingJoinHealthCheckId: null,
  activeWorkspaceId: null,
  canAdmin: false,
  avatarUrl: null,
  home: '/dashboard',
} satisfies Partial<CurrentUser>;

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
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  queryClient.setQueryData(['session'], session);
  const router = createMemoryRouter(
    [
      {
        element: <ParticipantLayout />,
        children: [
          { path: '/dashboard', element: <h1>My Health Checks</h1> },
          { path: PARTICIPANT_SETTINGS_PATH, element: <h1>Notification Settings</h1> },
          { path: '/health-check/:id/vote', element: <h1>Voting</h1> },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = input instanceof Request ? input.url : input.toString();
      if (url.endsWith('/api/notifications')) return new Response(JSON.stringify(bell), { status: 200 });
      return new Response(JSON.stringify({ ok: true }), { status: 200 });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
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
