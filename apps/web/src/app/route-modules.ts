/**
 * The screen modules (paths under apps/web) that the router loads for each URL pattern, outermost first.
 *
 * The build turns this into `dist/.vite/route-preloads.json` (each pattern with the files of those modules and
 * of their static imports), and the server lists those files as `<link rel="modulepreload">` in the HTML it
 * answers for a matching URL: the browser then fetches the screen's code together with the entry instead of
 * only after the entry has run. `router.tsx` stays the source of truth; `route-modules.test.ts` checks that this
 * table names exactly its lazy routes and the modules they load.
 */
const LEGAL = 'src/features/landing/legal-pages.tsx';
const PARTICIPANT_SIGNUP = 'src/features/participation/participant-signup-page.tsx';
const PARTICIPANT = 'src/app/layouts/participant-layout.tsx';
const PARTICIPATION = 'src/features/participation/participation-page.tsx';
const ADMIN = 'src/app/layouts/admin-layout.tsx';
const RESULTS = 'src/app/results-screen.tsx';
const CONFIGURE = 'src/features/health-checks/configure-page.tsx';
const ACCOUNT = 'src/features/account/account-settings-page.tsx';
const ANSWER = 'src/features/loops/answer-page.tsx';

export const ROUTE_MODULES: Readonly<Record<string, readonly string[]>> = {
  '/': ['src/features/landing/landing-page.tsx'],
  '/terms': [LEGAL],
  '/privacy': [LEGAL],
  '/login': ['src/features/auth/login-page.tsx'],
  '/admin/signup': ['src/features/auth/signup-page.tsx'],
  '/reset-password': ['src/features/auth/reset-password-page.tsx'],
  '/auth/redirect': ['src/features/auth/auth-redirect-page.tsx'],
  '/auth/admin-confirmation': ['src/features/auth/admin-confirmation-page.tsx'],
  '/join/:healthCheckId': ['src/features/participation/join-page.tsx'],
  '/signup/health-check/:healthCheckId': [PARTICIPANT_SIGNUP],
  '/signup/:healthCheckId': [PARTICIPANT_SIGNUP],
  '/invite/:token': ['src/features/team/accept-invitation-page.tsx'],
  '/unsubscribe': ['src/features/account/unsubscribe-page.tsx'],
  '/loop-answer/:token': [ANSWER],
  '/dashboard': [PARTICIPANT, 'src/app/my-dashboard-screen.tsx'],
  '/health-check/:healthCheckId': [PARTICIPANT, PARTICIPATION],
  '/health-check/:healthCheckId/voting': [PARTICIPANT, PARTICIPATION],
  '/health-check/:healthCheckId/vote': [PARTICIPANT, PARTICIPATION],
  '/health-check/:healthCheckId/complete': [PARTICIPANT, 'src/features/participation/completion-page.tsx'],
  '/loop-rounds/:roundId': [PARTICIPANT, ANSWER],
  '/account-settings/notifications': [PARTICIPANT, 'src/app/participant-settings-screen.tsx'],
  '/account-settings/security': [PARTICIPANT, 'src/app/participant-security-screen.tsx'],
  '/health-check/:healthCheckId/results': [RESULTS],
  '/admin': [ADMIN],
  '/admin/dashboard': [ADMIN, 'src/features/dashboard/dashboard-page.tsx'],
  '/admin/workspaces': [ADMIN, 'src/features/workspaces/workspaces-page.tsx'],
  '/admin/templates': [ADMIN, 'src/features/templates/templates-page.tsx'],
  '/admin/templates/:templateId/configure': [ADMIN, 'src/app/template-configure-screen.tsx'],
  '/admin/configure-loop/:loopId': [ADMIN, 'src/features/loops/configure-loop-page.tsx'],
  '/admin/configure-health-check/:templateId': [ADMIN, CONFIGURE],
  '/admin/health-check/:healthCheckId/manage': [ADMIN, 'src/features/health-checks/manage-page.tsx'],
  '/admin/health-check/:healthCheckId/results': [ADMIN, RESULTS],
  '/admin/health-checks/:healthCheckId/results': [ADMIN, RESULTS],
  '/admin/team-management': [ADMIN, 'src/features/team/team-page.tsx'],
  '/admin/team-management/invitations': [ADMIN, 'src/features/team/invitations-page.tsx'],
  '/admin/insights': [ADMIN, 'src/app/insights-screen.tsx'],
  '/admin/webhooks': [ADMIN],
  '/admin/workspace-settings': [ADMIN],
  '/admin/workspace-settings/webhooks': [ADMIN, 'src/app/workspace-webhooks-screen.tsx'],
  '/admin/workspace-settings/integrations': [ADMIN, 'src/app/workspace-integrations-screen.tsx'],
  '/admin/account-settings': [ADMIN, ACCOUNT],
  '/admin/account-settings/notifications': [ADMIN, 'src/features/account/notification-settings-page.tsx'],
  '/admin/account-settings/security': [ADMIN, 'src/features/account/security-page.tsx'],
  '/admin/account-settings/organisation': [ADMIN, 'src/app/organisation-settings-screen.tsx'],
  '/admin/account-settings/api-tokens': [ADMIN, 'src/features/account/api-tokens-page.tsx'],
  '/admin/account-settings/audit-log': [ADMIN, 'src/features/account/audit-log-page.tsx'],
  '/admin/completion-status/:loopId': [ADMIN, 'src/features/loops/completion-status-page.tsx'],
  '/admin/loop-results/:loopId': [ADMIN, 'src/features/loops/loop-results-page.tsx'],
  '/admin/loop-insights/:loopId/overview': [ADMIN, 'src/features/loops/loop-insights-page.tsx'],
};

/**
 * Modules loaded on demand that no screen imports, each with words of its own that load with it: the voting view,
 * which the participation screen shows through its route's handle, in phase vote only (router.tsx). The build
 * gives each a part (apps/web/vite-messages.ts); a module loaded so and missing here gets its words in every page's.
 */
export const ON_DEMAND_MODULES: Readonly<Record<string, string>> = {
  voting: 'src/features/voting/voting-view.tsx',
};
