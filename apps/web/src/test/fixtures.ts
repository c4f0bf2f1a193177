import type { CurrentUser } from '@pulsecheck/shared/auth/schemas';

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
