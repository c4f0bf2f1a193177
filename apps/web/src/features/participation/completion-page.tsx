import { topics } from '@pulsecheck/shared/realtime/topics';
import { comingUpNext, PARTICIPATION_MESSAGES as M } from '@pulsecheck/shared/participation/rules';
import { releaseMessage, releaseState } from '@pulsecheck/shared/results/release';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import confetti from 'canvas-confetti';
import { BarChart3, Bell, PartyPopper, Rocket } from 'lucide-react';
import { useEffect } from 'react';
import { Link, Navigate, useParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FullPageSpinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api-client';
import { useLiveEvents } from '@/lib/live-events';
import { useSession } from '@/lib/session';
import { participationKeys, participationQuery, progressQuery } from './api';
import { ParticipationShell } from './participation-shell';
import { useBranding } from '@/components/branding/branding';
import { TeamProgressCard } from './team-progress';
import { clearDraft } from './use-autosave';
import { StateCard } from '@/components/ui/state-card';
import { say, t, tRich } from '@/lib/i18n';

/** /health-check/{id}/complete: 'Phase 1 Complete!' with confetti, team progress and what comes next. */
export function CompletionPage() {
  const { healthCheckId = '' } = useParams();
  const queryClient = useQueryClient();
  const query = useQuery(participationQuery(healthCheckId, false));
  const progress = useQuery({ ...progressQuery(healthCheckId), enabled: query.isSuccess });
  useLiveEvents(
    [topics.healthCheck(healthCheckId)],
    () => void queryClient.invalidateQueries({ queryKey: participationKeys.all }),
    query.isSuccess,
  );
  const completed = query.data?.participant?.status === 'completed';
  useBranding(query.data?.branding);

  const userId = useSession().data?.id;
  useEffect(() => {
    if (!completed) return;
    // Answers typed on this device after submitting elsewhere can never be sent: drop them.
    if (userId) clearDraft(userId, healthCheckId);
    void confetti({ particleCount: 100, spread: 70, origin: { y: 0.6 }, disableForReducedMotion: true });
  }, [completed, userId, healthCheckId]);

  if (query.isPending) return <FullPageSpinner label={t('participation.loadingCheck')} />;
  if (query.isError) {
    const forbidden = query.error instanceof ApiError && query.error.status === 403;
    return (
      <ParticipationShell>
        <StateCard
          tone="error"
          title={say(forbidden ? M.notMember : M.completionLoadFailed)}
          message={forbidden ? t('participation.complete.askToAdd') : query.error.message}
          actions={
            <Button asChild>
              <Link to="/dashboard">{t('participation.returnToDashboard')}</Link>
            </Button>
          }
        />
      </ParticipationShell>
    );
  }
  const data = query.data;
  if (!completed) {
    if (data.healthCheck.phase === 'collect')
      return <Navigate to={`/health-check/${healthCheckId}/voting`} replace />;
    return (
      <ParticipationShell title={data.healthCheck.title} branding={data.branding}>
        <StateCard
          title={say(M.ratingClosed)}
          message={t('participation.complete.notSubmitted')}
          actions={
            <Button asChild>
              <Link to="/dashboard">{t('participation.returnToDashboard')}</Link>
            </Button>
          }
        />
      </ParticipationShell>
    );
  }

  const phase = progress.data?.phase ?? data.healthCheck.phase;
  const teamProgress = progress.data?.teamProgress ?? data.teamProgress;
  const { settings } = data.healthCheck;
  const release = releaseState({
    phase,
    manages: false,
    completed: teamProgress.completed,
    minResponses: settings.minResponses,
    participantStatus: 'completed',
    showResultsAfterVoting: settings.showResultsAfterVoting,
  });
  const next = comingUpNext(phase, healthCheckId);
  const nextDisabled = phase === 'collect';

  return (
    <ParticipationShell branding={data.branding}>
      <div className="mx-auto max-w-2xl space-y-6">
        <section className="rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm">
          <div className="mx-auto flex size-14 items-center justify-center rounded-full bg-green-100 text-green-700">
            <PartyPopper className="size-7" aria-hidden="true" />
          </div>
          <h1 className="mt-4 text-3xl font-bold text-slate-900">{t('participation.complete.title')}</h1>
          <p className="mt-2 text-slate-700">
            {tRich('participation.complete.thanks', {
              title: data.healthCheck.title,
              strong: (chunks) => <strong>{chunks}</strong>,
            })}
          </p>
        </section>

        <TeamProgressCard progress={teamProgress} workspaceName={data.healthCheck.workspaceName} />

        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <Rocket className="size-5 text-brand-700" aria-hidden="true" />{' '}
              {t('participation.complete.next')}
            </CardTitle>
            <CardDescription>{say(next.title)}</CardDescription>
          </CardHeader>
          <CardContent>
            <p className="text-sm text-slate-700">{say(next.description)}</p>
            <div className="mt-4 flex flex-wrap items-center gap-3">
              {nextDisabled ? (
                <>
                  <Button disabled aria-describedby="next-step-reason">
                    {say(next.action)}
                  </Button>
                  <span id="next-step-reason" className="text-sm text-slate-600">
                    {next.disabledReason && say(next.disabledReason)}
                  </span>
                </>
              ) : (
                <Button asChild>
                  <Link to={next.to}>{say(next.action)}</Link>
                </Button>
              )}
            </div>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <Bell className="size-5 text-brand-700" aria-hidden="true" />{' '}
              {t('participation.complete.stayUpdated')}
            </CardTitle>
            <CardDescription>{t('participation.complete.notificationsOn')}</CardDescription>
          </CardHeader>
          <CardContent>
            <p className="text-sm text-slate-700">
              {tRich('participation.complete.updates', {
                link: (chunks) => (
                  <Link to="/account-settings/notifications" className="text-brand-700 underline">
                    {chunks}
                  </Link>
                ),
              })}
            </p>
          </CardContent>
        </Card>

        <div className="flex flex-col gap-3 sm:flex-row">
          {release === 'released' ? (
            <Button asChild className="flex-1">
              <Link to={`/health-check/${healthCheckId}/results`}>
                <BarChart3 aria-hidden="true" /> {t('participation.complete.viewResults')}
              </Link>
            </Button>
          ) : (
            <div className="flex flex-1 flex-col">
              <Button disabled aria-describedby="results-reason">
                <BarChart3 aria-hidden="true" /> {t('participation.complete.viewResults')}
              </Button>
              <span id="results-reason" className="mt-1 text-center text-xs text-slate-600">
                {say(releaseMessage(release, Math.max(0, settings.minResponses - teamProgress.completed)))}
              </span>
            </div>
          )}
          <Button variant="secondary" asChild className="flex-1">
            <Link to="/dashboard">{t('participation.returnToDashboard')}</Link>
          </Button>
        </div>
      </div>
    </ParticipationShell>
  );
}
