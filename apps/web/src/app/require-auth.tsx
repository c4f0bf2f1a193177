import { Navigate, Outlet, useLocation } from 'react-router';
import { FullPageSpinner } from '@/components/ui/spinner';
import { useSession } from '@/lib/session';
import { UnexpectedError } from './error-screens';

/** Protected routes: a spinner while the session loads, /login when signed out. */
export function RequireAuth() {
  const session = useSession();
  const location = useLocation();
  if (session.isPending) return <FullPageSpinner />;
  if (session.isError) return <UnexpectedError message={session.error.message} />;
  if (!session.data) {
    return <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}` }} />;
  }
  return <Outlet />;
}
