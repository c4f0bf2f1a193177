import type { CurrentUser } from '@pulsecheck/shared/auth/schemas';
import type { WorkspacesResponse } from '@pulsecheck/shared/workspaces/schemas';

/** A signed-in admin as `/api/me` describes them; tests change what they are about. */
export const currentUser = (overrides: Partial<CurrentUser> = {}): CurrentUser => ({
  id: 'u-1',
  email: 'ada@example.com',
  name: 'Ada',
  role: 'CTO',
  setupStatus: 'completed',
  pendingJoinHealthCheckId: null,
  activeWorkspaceId: 'w-1',
  canAdmin: true,
  avatarUrl: null,
  home: '/admin/dashboard',
  mailEnabled: true,
  mustEnrolTwoFactor: false,
  ...overrides,
});

/** GET /workspaces with one workspace, the active one, of which the user is an admin. */
export const oneWorkspace = (id: string, name: string): WorkspacesResponse => ({
  workspaces: [
    {
      id,
      name,
      organizationId: 'o',
      organizationName: name,
      organizationRole: 'owner',
      isDefault: true,
      access: 'admin',
      createdAt: '2026-11-01T00:00:00Z',
    },
  ],
  activeWorkspaceId: id,
});
