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

  if (query.isPending) return <FullPageSpinner label="Loading health check..." />;
  if (query.isError) {
    const forbidden = query.error instanceof ApiError && query.error.status === 403;
    return (
      <ParticipationShell>
        <StateCard
          tone="error"
          title={forbidden ? M.notMember : M.completionLoadFailed}
          message={forbidden ? 'Ask the person who shared the link to add you.' : query.error.message}
          actions={
            <Button asChild>
              <Link to="/dashboard">Return to Dashboard</Link>
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
          title={M.ratingClosed}
          message="You did not submit ratings for this health check before it closed."
          actions={
            <Button asChild>
              <Link to="/dashboard">Return to Dashboard</Link>
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
          <h1 className="mt-4 text-3xl font-bold text-slate-900">Phase 1 Complete!</h1>
          <p className="mt-2 text-slate-700">
            Thank you for rating <strong>{data.healthCheck.title}</strong>. Your responses are saved.
          </p>
        </section>

        <TeamProgressCard progress={teamProgress} workspaceName={data.healthCheck.workspaceName} />

        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <Rocket className="size-5 text-brand-700" aria-hidden="true" /> Coming up next
            </CardTitle>
            <CardDescription>{next.title}</CardDescription>
          </CardHeader>
          <CardContent>
            <p className="text-sm text-slate-700">{next.description}</p>
            <div className="mt-4 flex flex-wrap items-center gap-3">
              {nextDisabled ? (
                <>
                  <Button disabled aria-describedby="next-step-reason">
                    {next.action}
                  </Button>
                  <span id="next-step-reason" className="text-sm text-slate-600">
                    {next.disabledReason}
                  </span>
                </>
              ) : (
                <Button asChild>
                  <Link to={next.to}>{next.action}</Link>
                </Button>
              )}
            </div>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <Bell className="size-5 text-brand-700" aria-hidden="true" /> Stay Updated
            </CardTitle>
            <CardDescription>Notifications enabled</CardDescription>
          </CardHeader>
          <CardContent>
            <p className="text-sm text-slate-700">
              This page updates by itself as your teammates finish. We will let you know when the next phase
              opens: on the bell at the top of the page, and by email unless you turn that off in your{' '}
              <Link to="/account-settings/notifications" className="text-brand-700 underline">
                notification settings
              </Link>
              .
            </p>
          </CardContent>
        </Card>

        <div className="flex flex-col gap-3 sm:flex-row">
          {release === 'released' ? (
            <Button asChild className="flex-1">
              <Link to={`/health-check/${healthCheckId}/results`}>
                <BarChart3 aria-hidden="true" /> View Results
              </Link>
            </Button>
          ) : (
            <div className="flex flex-1 flex-col">
              <Button disabled aria-describedby="results-reason">
                <BarChart3 aria-hidden="true" /> View Results
              </Button>
              <span id="results-reason" className="mt-1 text-center text-xs text-slate-600">
                {releaseMessage(release, Math.max(0, settings.minResponses - teamProgress.completed))}
              </span>
            </div>
          )}
          <Button variant="secondary" asChild className="flex-1">
            <Link to="/dashboard">Return to Dashboard</Link>
          </Button>
        </div>
      </div>
    </ParticipationShell>
  );
}
