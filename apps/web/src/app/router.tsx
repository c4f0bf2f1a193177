import { lazy, Suspense, type ComponentType } from 'react';
import { createBrowserRouter, Navigate, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { workspaceSettingsPath } from '@pulsecheck/shared/workspaces/settings';
import { FullPageSpinner } from '@/components/ui/spinner';
import { participationQuery } from '@/features/participation/api';
import { loadModuleMessages, loadPageMessages } from '@/lib/i18n';
import { sessionQuery } from '@/lib/session';
import {
  ErrorPage,
  InvalidLinkPage,
  RootErrorBoundary,
  RouteErrorBoundary,
  SetupErrorPage,
} from './error-screens';
import { queryClient } from './query-client';
import { RequireAuth } from './require-auth';

/**
 * A route whose screen is loaded on demand, so each page ships only its own code, with its own error boundary,
 * so a screen that fails to load or crashes does not take the rest of the app with it.
 */
function lazyPage<M>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType,
): Pick<RouteObject, 'lazy' | 'errorElement'> {
  return { lazy: async () => ({ Component: pick(await load()) }), errorElement: <RouteErrorBoundary /> };
}

/*
 * Loaders that only start requests, so they run while the screen's code loads instead of one after the other
 * once it has rendered (the screens read the same queries and wait for them). They return at once.
 */
const startSession = () => {
  void queryClient.prefetchQuery(sessionQuery);
  return null;
};
const startParticipation = ({ params, request }: LoaderFunctionArgs) => {
  const preview = new URL(request.url).searchParams.get('preview') === '1';
  void queryClient.prefetchQuery(participationQuery(params.healthCheckId ?? '', preview));
  return null;
};

/*
 * The admin screens' reads start the same way; their query definitions are imported here on demand (the route
 * preloads their files, so this waits for no extra request) to keep them out of every page's entry code.
 */
const startDashboard = () => {
  void import('@/features/dashboard/api').then((m) => queryClient.prefetchQuery(m.dashboardQuery));
  return null;
};
const startResults = ({ params }: LoaderFunctionArgs) => {
  const id = params.healthCheckId ?? '';
  void import('@/features/results/api').then((m) => queryClient.prefetchQuery(m.resultsQuery(id)));
  return null;
};

/** The results screen, with the notification bell in its header. */
const resultsPage = {
  ...lazyPage(
    () => import('./results-screen'),
    (m) => m.ResultsScreen,
  ),
  loader: startResults,
};

/** The voting feature's view, shown by the participation screen in phase `vote` (its route handle seam). */
const LazyVotingView = lazy(() =>
  Promise.all([import('@/features/voting/voting-view'), loadModuleMessages('voting')]).then(([m]) => ({
    default: m.VotingView,
  })),
);
function VotingView(props: { healthCheckId: string }) {
  return (
    <Suspense fallback={<FullPageSpinner />}>
      <LazyVotingView {...props} />
    </Suspense>
  );
}

/**
 * Participation screens. The voting phase plugs in through the route handle: add
 * `handle: { votingView: VotingView }` (a `ComponentType<{ healthCheckId: string }>`, e.g. React.lazy of
 * the voting feature's screen) to `rate`, and the participation screen shows it in phase `vote` to
 * participants who completed the rating (see `ParticipationRouteHandle`).
 */
const participation = {
  join: lazyPage(
    () => import('@/features/participation/join-page'),
    (m) => m.JoinPage,
  ),
  signup: lazyPage(
    () => import('@/features/participation/participant-signup-page'),
    (m) => m.ParticipantSignupPage,
  ),
  dashboard: lazyPage(
    () => import('./my-dashboard-screen'),
    (m) => m.MyDashboardScreen,
  ),
  rate: {
    ...lazyPage(
      () => import('@/features/participation/participation-page'),
      (m) => m.ParticipationPage,
    ),
    loader: startParticipation,
    handle: { votingView: VotingView },
  },
  complete: lazyPage(
    () => import('@/features/participation/completion-page'),
    (m) => m.CompletionPage,
  ),
};

/** Every page's words load with its code (lib/i18n.tsx): again on each new path, once per part and language. */
const loadWords = ({ request }: LoaderFunctionArgs) =>
  loadPageMessages(new URL(request.url).pathname).then(() => null);

export const routes: RouteObject[] = [
  {
    errorElement: <RootErrorBoundary />,
    hydrateFallbackElement: <FullPageSpinner />,
    loader: loadWords,
    shouldRevalidate: ({ currentUrl, nextUrl }) => currentUrl.pathname !== nextUrl.pathname,
    children: [
      {
        path: '/',
        ...lazyPage(
          () => import('@/features/landing/landing-page'),
          (m) => m.LandingPage,
        ),
      },
      {
        path: '/terms',
        ...lazyPage(
          () => import('@/features/landing/legal-pages'),
          (m) => m.TermsPage,
        ),
      },
      {
        path: '/privacy',
        ...lazyPage(
          () => import('@/features/landing/legal-pages'),
          (m) => m.PrivacyPage,
        ),
      },
      {
        path: '/login',
        loader: startSession,
        ...lazyPage(
          () => import('@/features/auth/login-page'),
          (m) => m.LoginPage,
        ),
      },
      {
        path: '/admin/signup',
        ...lazyPage(
          () => import('@/features/auth/signup-page'),
          (m) => m.SignupPage,
        ),
      },
      { path: '/signup', element: <Navigate to="/admin/signup" replace /> },
      {
        path: '/reset-password',
        ...lazyPage(
          () => import('@/features/auth/reset-password-page'),
          (m) => m.ResetPasswordPage,
        ),
      },
      {
        path: '/auth/redirect',
        ...lazyPage(
          () => import('@/features/auth/auth-redirect-page'),
          (m) => m.AuthRedirectPage,
        ),
      },
      {
        path: '/auth/admin-confirmation',
        ...lazyPage(
          () => import('@/features/auth/admin-confirmation-page'),
          (m) => m.AdminConfirmationPage,
        ),
      },
      { path: '/join/:healthCheckId', ...participation.join },
      { path: '/signup/health-check/:healthCheckId', ...participation.signup },
      { path: '/signup/:healthCheckId', ...participation.signup },
      {
        path: '/invite/:token',
        ...lazyPage(
          () => import('@/features/team/accept-invitation-page'),
          (m) => m.AcceptInvitationPage,
        ),
      },
      {
        path: '/unsubscribe',
        ...lazyPage(
          () => import('@/features/account/unsubscribe-page'),
          (m) => m.UnsubscribePage,
        ),
      },
      {
        path: '/loop-answer/:token',
        ...lazyPage(
          () => import('@/features/loops/answer-page'),
          (m) => m.LinkAnswerPage,
        ),
      },
      { path: '/error', element: <ErrorPage /> },
      { path: '/invalid-link', element: <InvalidLinkPage /> },
      { path: '/setup-error', element: <SetupErrorPage /> },
      {
        element: <RequireAuth />,
        loader: startSession,
        children: [
          {
            // The participant's frame with the notification bell (the results screen has its own header).
            ...lazyPage(
              () => import('./layouts/participant-layout'),
              (m) => m.ParticipantLayout,
            ),
            children: [
              { path: '/dashboard', ...participation.dashboard },
              { path: '/health-check/:healthCheckId', ...participation.rate },
              { path: '/health-check/:healthCheckId/voting', ...participation.rate },
              { path: '/health-check/:healthCheckId/vote', ...participation.rate },
              { path: '/health-check/:healthCheckId/complete', ...participation.complete },
              {
                path: '/loop-rounds/:roundId',
                ...lazyPage(
                  () => import('@/features/loops/answer-page'),
                  (m) => m.RoundAnswerPage,
                ),
              },
              {
                path: '/account-settings/notifications',
                ...lazyPage(
                  () => import('./participant-settings-screen'),
                  (m) => m.ParticipantSettingsScreen,
                ),
              },
              {
                path: '/account-settings/security',
                ...lazyPage(
                  () => import('./participant-security-screen'),
                  (m) => m.ParticipantSecurityScreen,
                ),
              },
            ],
          },
          { path: '/health-check/:healthCheckId/results', ...resultsPage },
          {
            path: '/admin',
            ...lazyPage(
              () => import('./layouts/admin-layout'),
              (m) => m.AdminLayout,
            ),
            children: [
              { index: true, element: <Navigate to="/admin/dashboard" replace /> },
              {
                path: 'dashboard',
                loader: startDashboard,
                ...lazyPage(
                  () => import('@/features/dashboard/dashboard-page'),
                  (m) => m.DashboardPage,
                ),
              },
              {
                path: 'workspaces',
                ...lazyPage(
                  () => import('@/features/workspaces/workspaces-page'),
                  (m) => m.WorkspacesPage,
                ),
              },
              {
                path: 'templates',
                ...lazyPage(
                  () => import('@/features/templates/templates-page'),
                  (m) => m.TemplatesPage,
                ),
              },
              {
                path: 'templates/:templateId/configure',
                ...lazyPage(
                  () => import('./template-configure-screen'),
                  (m) => m.TemplateConfigureScreen,
                ),
              },
              {
                path: 'configure-loop/:loopId',
                ...lazyPage(
                  () => import('@/features/loops/configure-loop-page'),
                  (m) => m.ConfigureLoopPage,
                ),
              },
              {
                path: 'configure-health-check/:templateId',
                ...lazyPage(
                  () => import('@/features/health-checks/configure-page'),
                  (m) => m.ConfigurePage,
                ),
              },
              {
                path: 'health-check/:healthCheckId/manage',
                ...lazyPage(
                  () => import('@/features/health-checks/manage-page'),
                  (m) => m.ManagePage,
                ),
              },
              { path: 'health-check/:healthCheckId/results', ...resultsPage },
              { path: 'health-checks/:healthCheckId/results', ...resultsPage },
              {
                path: 'team-management',
                ...lazyPage(
                  () => import('@/features/team/team-page'),
                  (m) => m.TeamManagementPage,
                ),
              },
              {
                path: 'team-management/invitations',
                ...lazyPage(
                  () => import('@/features/team/invitations-page'),
                  (m) => m.InvitationsPage,
                ),
              },
              {
                path: 'insights',
                ...lazyPage(
                  () => import('./insights-screen'),
                  (m) => m.InsightsScreen,
                ),
              },
              { path: 'webhooks', element: <Navigate to={workspaceSettingsPath('webhooks')} replace /> },
              {
                path: 'workspace-settings',
                element: <Navigate to={workspaceSettingsPath('webhooks')} replace />,
              },
              {
                path: 'workspace-settings/webhooks',
                ...lazyPage(
                  () => import('./workspace-webhooks-screen'),
                  (m) => m.WorkspaceWebhooksScreen,
                ),
              },
              {
                path: 'workspace-settings/integrations',
                ...lazyPage(
                  () => import('./workspace-integrations-screen'),
                  (m) => m.WorkspaceIntegrationsScreen,
                ),
              },
              {
                path: 'account-settings',
                ...lazyPage(
                  () => import('@/features/account/account-settings-page'),
                  (m) => m.AccountSettingsPage,
                ),
              },
              {
                path: 'account-settings/notifications',
                ...lazyPage(
                  () => import('@/features/account/notification-settings-page'),
                  (m) => m.NotificationSettingsPage,
                ),
              },
              {
                path: 'account-settings/organisation',
                ...lazyPage(
                  () => import('./organisation-settings-screen'),
                  (m) => m.OrganisationSettingsScreen,
                ),
              },
              {
                path: 'account-settings/security',
                ...lazyPage(
                  () => import('@/features/account/security-page'),
                  (m) => m.SecurityPage,
                ),
              },
              {
                path: 'account-settings/api-tokens',
                ...lazyPage(
                  () => import('@/features/account/api-tokens-page'),
                  (m) => m.ApiTokensPage,
                ),
              },
              {
                path: 'account-settings/audit-log',
                ...lazyPage(
                  () => import('@/features/account/audit-log-page'),
                  (m) => m.AuditLogPage,
                ),
              },
              {
                path: 'completion-status/:loopId',
                ...lazyPage(
                  () => import('@/features/loops/completion-status-page'),
                  (m) => m.CompletionStatusPage,
                ),
              },
              {
                path: 'loop-results/:loopId',
                ...lazyPage(
                  () => import('@/features/loops/loop-results-page'),
                  (m) => m.LoopResultsPage,
                ),
              },
              {
                path: 'loop-insights/:loopId/overview',
                ...lazyPage(
                  () => import('@/features/loops/loop-insights-page'),
                  (m) => m.LoopInsightsPage,
                ),
              },
            ],
          },
        ],
      },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];

let router: ReturnType<typeof createBrowserRouter> | undefined;

/**
 * The app's router, created by the first render rather than while the modules evaluate: creating it matches
 * the URL and starts the route's loaders, which then runs in a task of its own instead of lengthening the
 * startup task.
 */
export function getRouter() {
  router ??= createBrowserRouter(routes);
  return router;
}
