import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { currentUser } from '@/test/fixtures';
import { renderRoutes } from '@/test/render';
import { RequireAuth } from './require-auth';

function renderAt(at: string, session: ReturnType<typeof currentUser>) {
  renderRoutes(
    [
      {
        element: <RequireAuth />,
        children: [
          { path: '/admin/dashboard', element: <p>Dashboard</p> },
          { path: '/admin/account-settings/security', element: <p>Security tab</p> },
          { path: '/dashboard', element: <p>Participant dashboard</p> },
          { path: '/account-settings/security', element: <p>Participant security</p> },
        ],
      },
    ],
    { at, seed: [[['session'], session]] },
  );
}

describe('RequireAuth and the organisation two-factor requirement', () => {
  it('sends someone who must enrol to the Security tab before anything else', () => {
    renderAt('/admin/dashboard', currentUser({ mustEnrolTwoFactor: true }));
    expect(screen.getByText('Security tab')).toBeInTheDocument();
  });

  it('sends a participant to their own security screen', () => {
    renderAt('/dashboard', currentUser({ mustEnrolTwoFactor: true, canAdmin: false }));
    expect(screen.getByText('Participant security')).toBeInTheDocument();
  });

  it('lets everyone else through', () => {
    renderAt('/admin/dashboard', currentUser());
    expect(screen.getByText('Dashboard')).toBeInTheDocument();
  });
});
