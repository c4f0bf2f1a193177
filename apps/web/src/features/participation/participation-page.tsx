import type { Participation } from '@pulsecheck/shared/participation/contract';
import { PARTICIPATION_MESSAGES as M } from '@pulsecheck/shared/participation/rules';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createElement, useEffect, useRef, useState, type ComponentType } from 'react';
import { Link, Navigate, useMatches, useNavigate, useParams, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Deferred } from '@/components/ui/deferred';
import { FullPageSpinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toaster';
import { ApiError } from '@/lib/api-client';
import { useSession } from '@/lib/session';
import { joinHealthCheck, participationKeys, participationQuery, progressQuery } from './api';
import { ParticipationShell } from './participation-shell';
import { BrandLogo, useBranding } from '@/components/branding/branding';
import { draftQuery } from './use-autosave';
import { RatingFlow } from './rating-flow';
import { StateCard } from '@/components/ui/state-card';
import { say, t } from '@/lib/i18n';

/**
 * The seam for the voting phase: a route may carry `handle: { votingView }`, a component the voting feature
 * provides. In phase `vote` a participant who completed the rating sees it instead of the rating steps.
 */
export type ParticipationRouteHandle = { votingView?: ComponentType<{ healthCheckId: string }> };

function useVotingView() {
  const matches = useMatches();
  const handle = matches.at(-1)?.handle as ParticipationRouteHandle | undefined;
  return handle?.votingView;
}

/** /health-check/{id}/voting (and /health-check/{id}, /vote): load, membership check, then the steps. */
export function ParticipationPage() {
  const { healthCheckId = '' } = useParams();
  const [search] = useSearchParams();
  const previewRequested = search.get('preview') === '1';
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const session = useSession();
  const query = useQuery(participationQuery(healthCheckId, previewRequested));
  const VotingView = useVotingView();
  const [joinError, setJoinError] = useState<string | null>(null);
  const joining = useRef(false);
  const data = query.data;
  useBranding(data?.branding);

  const forbidden = query.error instanceof ApiError && query.error.status === 403;
  useEffect(() => {
    if (!forbidden) return;
    toast.error(say(M.notMember));
    void navigate('/dashboard', { replace: true });
  }, [forbidden, navigate]);

  // A workspace member who opens the check without having joined is registered here (not in preview).
  const mustJoin = Boolean(
    data && !data.preview && !data.participant && data.healthCheck.phase === 'collect',
  );
  useEffect(() => {
    if (!mustJoin || joining.current) return;
    joining.current = true;
    joinHealthCheck(healthCheckId)
      .then(() =>
        queryClient.invalidateQueries({ queryKey: participationKeys.check(healthCheckId, previewRequested) }),
      )
      .catch((error: unknown) => setJoinError(error instanceof ApiError ? error.message : say(M.joinFailed)));
  }, [mustJoin, healthCheckId, previewRequested, queryClient]);

  // Phase changes arrive through the progress poll and live events: reload the screen's data on them.
  const progress = useQuery({ ...progressQuery(healthCheckId), enabled: Boolean(data) });
  // An unsaved copy kept in this browser, read beside the data (its check loads code only when there is one).
  const draft = useQuery({
    ...draftQuery(session.data?.id ?? '', healthCheckId),
    enabled: Boolean(session.data),
  });
  const phase = progress.data?.phase;
  useEffect(() => {
    if (data && phase && phase !== data.healthCheck.phase) void query.refetch();
  }, [phase, data, query]);

  const retryActions = (
    <>
      <Button onClick={() => void query.refetch()}>{t('common.tryAgain')}</Button>
      <Button variant="secondary" asChild>
        <Link to="/dashboard">{t('participation.backToDashboard')}</Link>
      </Button>
    </>
  );

  if (query.isPending || session.isPending)
    return <FullPageSpinner label={t('participation.loadingCheck')} />;
  if (query.isError) {
    if (forbidden) return <FullPageSpinner />;
    const notFound = query.error instanceof ApiError && query.error.status === 404;
    return (
      <ParticipationShell>
        <StateCard
          tone="error"
          title={say(notFound ? M.notAvailable : M.loadFailed)}
          message={notFound ? say(M.doesNotExist) : query.error.message}
          actions={retryActions}
        />
      </ParticipationShell>
    );
  }
  if (!data || !session.data) return <FullPageSpinner />;
  if (joinError) {
    return (
      <ParticipationShell>
        <StateCard
          tone="error"
          title={say(M.joinFailed)}
          message={joinError}
          actions={
            <Button asChild>
              <Link to="/">{t('participation.returnHome')}</Link>
            </Button>
          }
        />
      </ParticipationShell>
    );
  }
  if (mustJoin) return <FullPageSpinner label={t('participation.joining')} />;

  const completed = data.participant?.status === 'completed';
  if (data.healthCheck.phase !== 'collect') {
    if (data.healthCheck.phase === 'vote' && completed && VotingView) {
      return (
        <>
          {data.branding?.logoUrl && (
            <div className="mx-auto max-w-5xl px-4 pt-6">
              <BrandLogo branding={data.branding} />
            </div>
          )}
          {createElement(VotingView, { healthCheckId })}
        </>
      );
    }
    if (completed && data.healthCheck.phase !== 'vote') {
      return <Navigate to={`/health-check/${healthCheckId}/complete`} replace />;
    }
    return <ClosedView data={data} completed={completed} />;
  }
  if (completed && !data.preview) return <Navigate to={`/health-check/${healthCheckId}/complete`} replace />;
  if (draft.isPending) return <FullPageSpinner label={t('participation.loadingCheck')} />;
  if (data.components.length === 0) {
    return (
      <ParticipationShell>
        <StateCard
          title={say(M.notAvailable)}
          message={t('participation.noComponents')}
          actions={retryActions}
        />
      </ParticipationShell>
    );
  }
  return (
    <Deferred fallback={<FullPageSpinner label={t('participation.loadingCheck')} />}>
      <RatingFlow
        key={`${healthCheckId}:${data.participant?.id ?? 'preview'}`}
        data={data}
        userId={session.data.id}
        draft={draft.data ?? null}
        teamProgress={progress.data?.teamProgress ?? data.teamProgress}
      />
    </Deferred>
  );
}

function ClosedView({ data, completed }: { data: Participation; completed: boolean }) {
  const id = data.healthCheck.id;
  return (
    <ParticipationShell title={data.healthCheck.title} branding={data.branding}>
      <StateCard
        title={completed ? t('participation.closed.votingOpen') : say(M.ratingClosed)}
        message={completed ? t('participation.closed.ratingsIn') : t('participation.closed.notCounted')}
        actions={
          <>
            {completed && (
              <Button asChild>
                <Link to={`/health-check/${id}/complete`}>{t('participation.closed.viewProgress')}</Link>
              </Button>
            )}
            <Button variant="secondary" asChild>
              <Link to="/dashboard">{t('participation.backToDashboard')}</Link>
            </Button>
          </>
        }
      />
    </ParticipationShell>
  );
}
