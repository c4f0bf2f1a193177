import { Navigate, Outlet, useLocation } from 'react-router';
import { FullPageSpinner } from '@/components/ui/spinner';
import { loggedOutInThisTab, useSession } from '@/lib/session';
import { UnexpectedError } from './error-screens';

/** Where someone whose organisation requires two-factor sign-in sets it up. */
export const securityPathFor = (user: { canAdmin: boolean }) =>
  user.canAdmin ? '/admin/account-settings/security' : '/account-settings/security';

/**
 * Protected routes: a spinner while the session loads, /login when signed out, and the Security tab before
 * anything else while the organisation's two-factor requirement is unmet (the server refuses the rest).
 */
export function RequireAuth() {
  const session = useSession();
  const location = useLocation();
  if (session.isPending) return <FullPageSpinner />;
  if (session.isError) return <UnexpectedError message={session.error.message} />;
  if (!session.data) {
    // Back here after signing in, unless this tab's Logout ended the session (someone else may sign in next).
    const from = loggedOutInThisTab() ? undefined : { from: `${location.pathname}${location.search}` };
    return <Navigate to="/login" replace state={from} />;
  }
  const security = securityPathFor(session.data);
  if (session.data.mustEnrolTwoFactor && location.pathname !== security)
    return <Navigate to={security} replace />;
  return <Outlet />;
}
