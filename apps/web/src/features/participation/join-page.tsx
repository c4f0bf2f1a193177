import { LanguageMenu } from '@/components/language-menu';
import { isUuid } from '@pulsecheck/shared/api/ids';
import type { MyHealthCheck } from '@pulsecheck/shared/participation/contract';
import { PARTICIPATION_MESSAGES as M } from '@pulsecheck/shared/participation/rules';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AlertTriangle } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { FullPageSpinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api-client';
import { say, t } from '@/lib/i18n';
import { useSession } from '@/lib/session';
import { joinHealthCheck, joinInfoQuery, myHealthChecksQuery, participationKeys } from './api';

/**
 * /join/{id} (spec section 4, join flow): signed out goes to the participant sign-up once the check is known to
 * exist. Signed in, the spec's steps, each with its own message when it fails (section 8): fetch the check,
 * check whether the user already takes part (then straight to the participation screen), otherwise register
 * them (once). Unknown checks go to /invalid-link, signed in or out.
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
    const notFound = (failure: unknown) => failure instanceof ApiError && failure.status === 404;
    const run = async () => {
      try {
        await queryClient.fetchQuery(joinInfoQuery(healthCheckId));
      } catch (failure) {
        if (notFound(failure)) return navigate('/invalid-link', { replace: true });
        return setError(say(M.fetchFailed));
      }
      let mine: MyHealthCheck[];
      try {
        mine = (await queryClient.fetchQuery({ ...myHealthChecksQuery(), staleTime: 0 })).healthChecks;
      } catch {
        return setError(say(M.participantStatusFailed));
      }
      if (mine.some((check) => check.id === healthCheckId)) {
        return navigate(`/health-check/${healthCheckId}/voting`, { replace: true });
      }
      try {
        const result = await joinHealthCheck(healthCheckId);
        await queryClient.invalidateQueries({ queryKey: participationKeys.all });
        return navigate(result.redirectTo, { replace: true });
      } catch (failure) {
        if (notFound(failure)) return navigate('/invalid-link', { replace: true });
        // 409: the server's words, e.g. 'Health check is not accepting participants (status: phase_2)'.
        return setError(
          failure instanceof ApiError && failure.status === 409 ? failure.message : say(M.joinFailed),
        );
      }
    };
    void run();
  }, [valid, signedIn, healthCheckId, navigate, queryClient]);

  if (!valid) return <JoinError message={say(M.invalidLink)} />;
  if (session.isPending) return <FullPageSpinner label={t('participation.join.opening')} />;
  if (session.isError) return <JoinError message={say(M.joinFailed)} />;
  if (!session.data) {
    if (info.isError) {
      const unknown = info.error instanceof ApiError && info.error.status === 404;
      return unknown ? <Navigate to="/invalid-link" replace /> : <JoinError message={say(M.fetchFailed)} />;
    }
    if (!info.data) return <FullPageSpinner label={t('participation.join.opening')} />;
    return <Navigate to={`/signup/${healthCheckId}`} replace />;
  }
  if (error) return <JoinError message={error} />;
  return <FullPageSpinner label={t('participation.joining')} />;
}

function JoinError({ message }: { message: string }) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-6 p-4">
      <div className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-8 text-center shadow-sm">
        <div className="mx-auto mb-4 flex size-12 items-center justify-center rounded-full bg-red-50 text-red-600">
          <AlertTriangle aria-hidden="true" />
        </div>
        <h1 className="text-xl font-semibold text-slate-900">{t('participation.join.unable')}</h1>
        <p role="alert" className="mt-2 text-sm text-slate-700">
          {message}
        </p>
        <Button className="mt-6" asChild>
          <Link to="/">{t('participation.returnHome')}</Link>
        </Button>
      </div>
      <LanguageMenu />
    </main>
  );
}
