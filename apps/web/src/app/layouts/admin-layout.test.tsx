import type { CurrentUser } from '@pulsecheck/shared/auth/schemas';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { currentUser } from '@/test/fixtures';
import { renderRoutes, stubFetch } from '@/test/render';
import { RouteErrorBoundary } from '../error-screens';
import { AdminLayout } from './admin-layout';

function Broken(): never {
  throw new Error('The screen exploded');
}

const user = (overrides: Partial<CurrentUser> = {}) => currentUser({ role: 'Admin', ...overrides });

function renderAt(path: string, session: CurrentUser | null) {
  return renderRoutes(
    [
      {
        path: '/admin',
        element: <AdminLayout />,
        children: [
          { path: 'dashboard', element: <p>dashboard screen</p> },
          { path: 'templates', element: <p>templates screen</p> },
          { path: 'health-check/:id/manage', element: <p>manage screen</p> },
          { path: 'broken', element: <Broken />, errorElement: <RouteErrorBoundary /> },
        ],
      },
      { path: '/dashboard', element: <p>participant home</p> },
      { path: '/login', element: <p>login screen</p> },
      { path: '/auth/admin-confirmation', element: <p>confirmation screen</p> },
    ],
    { at: path, seed: [[['session'], session]] },
  );
}

let organizationRole: 'owner' | 'admin' | null = null;

beforeEach(() => {
  organizationRole = null;
  stubFetch((url) => {
    if (url.endsWith('/api/workspaces')) {
      return new Response(
        JSON.stringify({
          workspaces: [
            {
              id: 'w1',
              name: 'Acme',
              organizationId: 'o1',
              organizationName: 'Acme',
              organizationRole,
              isDefault: true,
              access: 'admin',
              createdAt: '2026-01-01T00:00:00.000Z',
            },
          ],
          activeWorkspaceId: 'w1',
        }),
        { status: 200 },
      );
    }
    if (url.endsWith('/api/logout')) return new Response(JSON.stringify({ ok: true }), { status: 200 });
    return new Response(JSON.stringify({ error: { code: 'not_found', message: 'nope' } }), { status: 404 });
  });
});

describe('AdminLayout', () => {
  it('sends users without admin or member access to /dashboard', async () => {
    renderAt('/admin/dashboard', user({ canAdmin: false }));
    expect(await screen.findByText('participant home')).toBeInTheDocument();
  });

  it('sends an admin whose set-up is pending to /auth/admin-confirmation', async () => {
    renderAt('/admin/dashboard', user({ setupStatus: 'pending_setup', canAdmin: false }));
    expect(await screen.findByText('confirmation screen')).toBeInTheDocument();
  });

  it('sends signed-out visitors to /login', async () => {
    renderAt('/admin/dashboard', null);
    expect(await screen.findByText('login screen')).toBeInTheDocument();
  });

  it('shows the four entries, the active workspace and the breadcrumb', async () => {
    renderAt('/admin/health-check/3f2a9c1e-1b2c-4d5e-8f90-123456789abc/manage', user());
    expect(await screen.findByText('manage screen')).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Admin' });
    expect([...nav.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual([
      '/admin/dashboard',
      '/admin/templates',
      '/admin/team-management',
      '/admin/account-settings',
    ]);
    expect(await screen.findByTestId('active-workspace')).toHaveTextContent('Acme');
    // Not the organisation's owner or admin: no Insights.
    expect(screen.queryByRole('link', { name: 'Insights' })).not.toBeInTheDocument();
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(crumbs).toHaveTextContent('Health CheckManage');
    expect(screen.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/admin/dashboard');
  });

  it("adds Insights for the organisation's owner and its admins only", async () => {
    organizationRole = 'admin';
    renderAt('/admin/dashboard', user());
    expect(await screen.findByRole('link', { name: 'Insights' })).toHaveAttribute('href', '/admin/insights');
  });

  it('shows one notification bell at each width: the top bar below 1024 px, the sidebar from there', async () => {
    for (const wide of [false, true]) {
      vi.stubGlobal('matchMedia', (query: string) => ({
        matches: wide && query === '(min-width: 1024px)',
        addEventListener: () => {},
        removeEventListener: () => {},
      }));
      renderAt('/admin/dashboard', user());
      const bells = await screen.findAllByRole('button', { name: /^Notifications/ });
      expect(bells).toHaveLength(1);
      const sidebar = screen.getByRole('complementary', { name: 'Sidebar' });
      expect(sidebar.contains(bells[0]!)).toBe(wide);
      cleanup();
      vi.unstubAllGlobals();
    }
  });

  it('logs out: clears the session and goes to /login', async () => {
    const { queryClient } = renderAt('/admin/dashboard', user());
    await userEvent.click(await screen.findByRole('button', { name: 'Logout' }));
    expect(await screen.findByText('login screen')).toBeInTheDocument();
    expect(queryClient.getQueryData(['session'])).toBeNull();
    expect(queryClient.getQueryData(['workspaces'])).toBeUndefined();
  });

  it('a crashing screen shows the error inside the layout, which keeps working', async () => {
    renderAt('/admin/broken', user());
    expect(await screen.findByRole('heading', { name: 'An unexpected error occurred' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Admin' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Logout' })).toBeEnabled();
    expect(screen.getAllByRole('main')).toHaveLength(1);
  });
});
