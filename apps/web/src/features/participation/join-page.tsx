import { isUuid } from '@pulsecheck/shared/api/ids';
import { PARTICIPATION_MESSAGES as M } from '@pulsecheck/shared/participation/rules';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AlertTriangle } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { FullPageSpinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api-client';
import { useSession } from '@/lib/session';
import { joinHealthCheck, joinInfoQuery, participationKeys } from './api';

/**
 * /join/{id} (spec section 4, join flow): signed out goes to the participant sign-up once the check is known to
 * exist; otherwise the user is registered (once) and goes to the participation screen. Unknown checks go to
 * /invalid-link, signed in or out.
 */
export function JoinPage() {
  const { healthCheckId = '' } = useParams();
  const session = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);
  const valid = isUuid(healthCheckId);
  const signedIn = Boolean(session.data);
  const info = useQuery({
    ...joinInfoQuery(healthCheckId),
    enabled: valid && session.isSuccess && !signedIn,
  });

  useEffect(() => {
    if (!valid || !signedIn || started.current) return;
    started.current = true;
    joinHealthCheck(healthCheckId)
      .then(async (result) => {
        await queryClient.invalidateQueries({ queryKey: participationKeys.all });
        void navigate(result.redirectTo, { replace: true });
      })
      .catch((failure: unknown) => {
        if (failure instanceof ApiError && failure.status === 404) {
          void navigate('/invalid-link', { replace: true });
          return;
        }
        setError(failure instanceof ApiError && failure.status === 409 ? failure.message : M.joinFailed);
      });
  }, [valid, signedIn, healthCheckId, navigate, queryClient]);

  if (!valid) return <JoinError message={M.invalidLink} />;
  if (session.isPending) return <FullPageSpinner label="Opening health check..." />;
  if (session.isError) return <JoinError message={M.joinFailed} />;
  if (!session.data) {
    if (info.isError) {
      const unknown = info.error instanceof ApiError && info.error.status === 404;
      return unknown ? <Navigate to="/invalid-link" replace /> : <JoinError message={M.joinFailed} />;
    }
    if (!info.data) return <FullPageSpinner label="Opening health check..." />;
    return <Navigate to={`/signup/${healthCheckId}`} replace />;
  }
  if (error) return <JoinError message={error} />;
  return <FullPageSpinner label="Joining health check..." />;
}

function JoinError({ message }: { message: string }) {
  return (
    <main className="flex min-h-screen items-center justify-center p-4">
      <div className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-8 text-center shadow-sm">
        <div className="mx-auto mb-4 flex size-12 items-center justify-center rounded-full bg-red-50 text-red-600">
          <AlertTriangle aria-hidden="true" />
        </div>
        <h1 className="text-xl font-semibold text-slate-900">Unable to join</h1>
        <p role="alert" className="mt-2 text-sm text-slate-700">
          {message}
        </p>
        <Button className="mt-6" asChild>
          <Link to="/">Return Home</Link>
        </Button>
      </div>
    </main>
  );
}
