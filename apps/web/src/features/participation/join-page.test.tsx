import type { CurrentUser } from '@pulsecheck/shared/auth/schemas';
import { PARTICIPATION_MESSAGES } from '@pulsecheck/shared/participation/rules';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { say, t } from '@/lib/i18n';
import { JoinPage } from './join-page';

const CHECK = '11111111-1111-4111-8111-111111111111';
const USER: CurrentUser = {
  id: 'u-1',
  email: 'pat@example.com',
  name: 'Pat',
  role: null,
  setupStatus: null,
  pendingJoinHealthCheckId: null,
  activeWorkspaceId: null,
  canAdmin: false,
  avatarUrl: null,
  home: '/dashboard',
  mailEnabled: true,
  mustEnrolTwoFactor: false,
};
const failure = () => Response.json({ error: { code: 'internal', message: 'boom' } }, { status: 500 });
const joinInfo = () => Response.json({ id: CHECK, title: 'Q3', acceptingParticipants: true });
const none = () => Response.json({ healthChecks: [] });

/** The join page at /join/{CHECK}, signed in as USER or signed out, with the API answering per path. */
function renderJoin(user: CurrentUser | null, answers: Record<string, () => Response>) {
  const fetch = vi.fn(async (url: string) => {
    const answer = answers[url];
    if (!answer) throw new Error(`unexpected request ${url}`);
    return answer();
  });
  vi.stubGlobal('fetch', fetch);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(['session'], user);
  const router = createMemoryRouter(
    [
      { path: '/join/:healthCheckId', element: <JoinPage /> },
      { path: '/health-check/:healthCheckId/voting', element: <h1>Voting screen</h1> },
      { path: '/invalid-link', element: <h1>Invalid link</h1> },
    ],
    { initialEntries: [`/join/${CHECK}`] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { fetch, requested: () => fetch.mock.calls.map(([url]) => url) };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const INFO = `/api/join/${CHECK}`;
const MINE = '/api/my/health-checks';
const JOIN = `/api/health-checks/${CHECK}/join`;

describe('join page (spec section 8, join)', () => {
  it("says 'Failed to fetch health check' when the check cannot be read, signed out", async () => {
    renderJoin(null, { [INFO]: failure });
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Failed to fetch health check$/);
    expect(screen.getByRole('link', { name: 'Return Home' })).toHaveAttribute('href', '/');
  });

  it("says 'Failed to fetch health check' when the check cannot be read, signed in, and goes no further", async () => {
    const api = renderJoin(USER, { [INFO]: failure });
    expect(await screen.findByRole('alert')).toHaveTextContent(say(PARTICIPATION_MESSAGES.fetchFailed));
    expect(api.requested()).toEqual([INFO]);
  });

  it("says 'Failed to check participant status' when the user's participation cannot be read, and registers nobody", async () => {
    const api = renderJoin(USER, { [INFO]: joinInfo, [MINE]: failure });
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Failed to check participant status$/);
    expect(api.requested()).toEqual([INFO, MINE]);
  });

  it('sends someone who already takes part straight to the participation screen', async () => {
    const mine = () =>
      Response.json({
        healthChecks: [
          {
            id: CHECK,
            title: 'Q3',
            workspaceName: 'W',
            phase: 'vote',
            status: 'phase_2',
            participantStatus: 'completed',
            progress: 100,
            joinedAt: '2026-11-01T00:00:00Z',
            completedAt: '2026-11-02T00:00:00Z',
            teamProgress: { completed: 1, total: 1 },
            resultsReleased: false,
          },
        ],
      });
    const api = renderJoin(USER, { [INFO]: joinInfo, [MINE]: mine });
    expect(await screen.findByRole('heading', { name: 'Voting screen' })).toBeInTheDocument();
    expect(api.requested()).toEqual([INFO, MINE]);
  });

  it("registers a newcomer; a failure says 'Failed to join health check', a refusal the server's words", async () => {
    const api = renderJoin(USER, { [INFO]: joinInfo, [MINE]: none, [JOIN]: failure });
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Failed to join health check$/);
    expect(api.requested()).toEqual([INFO, MINE, JOIN]);
    cleanup();

    const closed = t(PARTICIPATION_MESSAGES.notAccepting, { status: 'phase_2' });
    renderJoin(USER, {
      [INFO]: joinInfo,
      [MINE]: none,
      [JOIN]: () => Response.json({ error: { code: 'conflict', message: closed } }, { status: 409 }),
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(closed);
    cleanup();

    renderJoin(USER, {
      [INFO]: joinInfo,
      [MINE]: none,
      [JOIN]: () => Response.json({ participantId: CHECK, redirectTo: `/health-check/${CHECK}/voting` }),
    });
    expect(await screen.findByRole('heading', { name: 'Voting screen' })).toBeInTheDocument();
  });

  it('sends an unknown check to /invalid-link', async () => {
    renderJoin(USER, {
      [INFO]: () => Response.json({ error: { code: 'not_found', message: 'x' } }, { status: 404 }),
    });
    expect(await screen.findByRole('heading', { name: 'Invalid link' })).toBeInTheDocument();
  });
});
