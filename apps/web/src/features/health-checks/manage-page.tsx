import {
  dashboardStatus,
  HEALTH_CHECK_NOT_FOUND,
  phaseAction,
  phaseLabel,
  PHASES,
  progressColour,
  STEPPER_PHASES,
} from '@pulsecheck/shared/health-checks/rules';
import type { HealthCheckDetail } from '@pulsecheck/shared/health-checks/schemas';
import { HEALTH_CHECK_MESSAGES } from '@pulsecheck/shared/health-checks/messages';
import { AlertTriangle, CheckCircle2, Copy, Eye, Share2 } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { ProgressBar } from '@/components/ui/progress-bar';
import { Spinner } from '@/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { TOAST, toast } from '@/components/ui/toaster';
import { ApiError } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { formatDateTime } from '@/lib/dates';
import { formats, say, t } from '@/lib/i18n';
import { useChangePhase, useHealthCheck, useLiveHealthCheck, useParticipants } from './api';
import { SettingsTab } from './settings-tab';
import { copyToClipboard, ShareDialog } from './share-dialog';

/** A check's status on the dashboard, in words. */
const statusLabel = (status: 'active' | 'voting' | 'completed') =>
  status === 'completed'
    ? t('healthChecks.statusCompleted')
    : status === 'voting'
      ? t('healthChecks.statusVoting')
      : t('healthChecks.statusActive');

/** A rate out of 100 as a percentage in the app's language. */
const percent = (rate: number) => formats().percent(rate / 100);

/** /admin/health-check/{id}/manage */
export function ManagePage() {
  const { healthCheckId = '' } = useParams();
  const check = useHealthCheck(healthCheckId);
  useLiveHealthCheck(healthCheckId);

  if (check.isPending) return <Spinner label={t('healthChecks.loadingCheck')} className="py-16" />;
  if (check.isError) {
    const notFound = check.error instanceof ApiError && check.error.status === 404;
    return (
      <Card className="mx-auto max-w-md p-8 text-center">
        <AlertTriangle className="mx-auto size-10 text-red-600" aria-hidden="true" />
        <h1 className="mt-3 text-lg font-semibold">{t('healthChecks.loadError')}</h1>
        <p className="mt-2 text-sm text-slate-600">
          {say(notFound ? HEALTH_CHECK_NOT_FOUND : HEALTH_CHECK_MESSAGES.loadFailed)}
        </p>
        <Button className="mt-4" asChild>
          <Link to="/admin/dashboard">{t('healthChecks.returnToDashboard')}</Link>
        </Button>
      </Card>
    );
  }
  return <Manage check={check.data} />;
}

function Manage({ check }: { check: HealthCheckDetail }) {
  const navigate = useNavigate();
  const [sharing, setSharing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const changePhase = useChangePhase(check.id);
  const action = phaseAction(check.phase);
  const status = dashboardStatus(check.status);

  const confirm = () => {
    if (!action) return;
    changePhase.mutate(action.to, {
      onSuccess: () => {
        setConfirming(false);
        if (action.to === 'vote')
          toast.success(say(HEALTH_CHECK_MESSAGES.movedToVote), { duration: TOAST.save });
        else {
          toast.success(say(HEALTH_CHECK_MESSAGES.completed), { duration: TOAST.save });
          void navigate(`/admin/health-checks/${check.id}/results`);
        }
      },
      onError: (error) => {
        setConfirming(false);
        const fallback =
          action.to === 'vote'
            ? HEALTH_CHECK_MESSAGES.changePhaseFailed
            : HEALTH_CHECK_MESSAGES.completeFailed;
        toast.error(error instanceof ApiError && error.status === 409 ? error.message : say(fallback));
      },
    });
  };

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold break-words text-slate-900">{check.title}</h1>
          <p className="mt-1 text-sm text-slate-600">
            {t('healthChecks.createdIn', {
              workspace: check.workspace.name,
              date: formatDateTime(check.createdAt),
            })}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" onClick={() => setSharing(true)}>
            <Share2 aria-hidden="true" />
            {t('healthChecks.shareButton')}
          </Button>
          <Button variant="secondary" asChild>
            <Link to={`/health-check/${check.id}?preview=1`}>
              <Eye aria-hidden="true" />
              {t('healthChecks.preview')}
            </Link>
          </Button>
        </div>
      </div>

      <div className="grid gap-4 sm:grid-cols-3">
        <Stat label={t('healthChecks.phase')} testId="phase-card" value={say(phaseLabel(check.phase))} />
        <Stat
          label={t('healthChecks.participants')}
          testId="participants-card"
          value={formats().number(check.participants.total)}
          detail={t('healthChecks.completedCount', { count: check.participants.completed })}
        />
        <Stat
          label={t('healthChecks.completion')}
          testId="completion-card"
          value={percent(check.completionRate)}
          detail={
            <ProgressBar
              value={check.completionRate}
              tone={progressColour(check.completionRate)}
              label={t('healthChecks.completion')}
            />
          }
        />
      </div>

      <Card>
        <CardHeader>
          <CardTitle className="text-base">{t('healthChecks.joinLinkTitle')}</CardTitle>
        </CardHeader>
        <CardContent className="flex flex-col gap-2 sm:flex-row">
          <input
            readOnly
            value={check.joinUrl}
            aria-label={t('healthChecks.joinLink')}
            className="h-10 min-w-0 flex-1 rounded-lg border border-slate-300 bg-slate-50 px-3 text-sm"
          />
          <Button variant="secondary" onClick={() => void copyToClipboard(check.joinUrl)}>
            <Copy aria-hidden="true" />
            {t('healthChecks.copyLink')}
          </Button>
        </CardContent>
      </Card>

      <Card>
        <CardContent className="flex flex-col gap-4 pt-6">
          <Stepper phase={check.phase} />
          {check.canManage && action && (
            <div className="flex flex-wrap items-center gap-3">
              <Button onClick={() => setConfirming(true)} disabled={changePhase.isPending}>
                {say(action.label)}
              </Button>
              {check.phase === 'collect' && check.allCompleted && (
                <span className="inline-flex items-center gap-1 text-sm font-medium text-green-700">
                  <CheckCircle2 className="size-4" aria-hidden="true" />
                  {say(HEALTH_CHECK_MESSAGES.allCompleted)}
                </span>
              )}
            </div>
          )}
          {!action && (
            <Button variant="secondary" className="w-fit" asChild>
              <Link to={`/admin/health-checks/${check.id}/results`}>{t('healthChecks.viewResults')}</Link>
            </Button>
          )}
        </CardContent>
      </Card>

      <Tabs defaultValue="overview">
        <TabsList aria-label={t('healthChecks.manageTabs')}>
          <TabsTrigger value="overview">{t('healthChecks.tabOverview')}</TabsTrigger>
          <TabsTrigger value="participants">{t('healthChecks.participants')}</TabsTrigger>
          <TabsTrigger value="settings">{t('healthChecks.tabSettings')}</TabsTrigger>
        </TabsList>
        <TabsContent value="overview">
          <Card>
            <CardContent className="pt-6">
              <dl className="grid gap-4 text-sm sm:grid-cols-2">
                <Detail term={t('healthChecks.status')}>
                  <Badge tone={status === 'completed' ? 'green' : status === 'voting' ? 'purple' : 'blue'}>
                    {statusLabel(status)}
                  </Badge>
                </Detail>
                <Detail term={t('healthChecks.currentPhase')}>{say(phaseLabel(check.phase))}</Detail>
                <Detail term={t('healthChecks.createdAt')}>{formatDateTime(check.createdAt)}</Detail>
                <Detail term={t('healthChecks.workspace')}>{check.workspace.name}</Detail>
                <Detail term={t('healthChecks.completionRate')}>{percent(check.completionRate)}</Detail>
                {check.description && (
                  <Detail term={t('healthChecks.description')}>{check.description}</Detail>
                )}
              </dl>
            </CardContent>
          </Card>
        </TabsContent>
        <TabsContent value="participants">
          <ParticipantsTab id={check.id} />
        </TabsContent>
        <TabsContent value="settings">
          <SettingsTab check={check} />
        </TabsContent>
      </Tabs>

      <ShareDialog
        open={sharing}
        onOpenChange={setSharing}
        healthCheckId={check.id}
        title={check.title}
        joinUrl={check.joinUrl}
      />
      <Dialog open={confirming} onOpenChange={setConfirming}>
        <DialogContent
          title={say(HEALTH_CHECK_MESSAGES.confirmTitle)}
          description={say(HEALTH_CHECK_MESSAGES.confirmText)}
        >
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setConfirming(false)}>
              {t('common.cancel')}
            </Button>
            <Button onClick={confirm} disabled={changePhase.isPending}>
              {changePhase.isPending ? t('healthChecks.working') : t('healthChecks.confirm')}
            </Button>
          </div>
        </DialogContent>
      </Dialog>
    </div>
  );
}

function Detail({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-slate-600">{term}</dt>
      <dd className="mt-0.5 font-medium text-slate-900">{children}</dd>
    </div>
  );
}

/** Collection, Voting, Summary (PRODUCT-DECISIONS 9). */
function Stepper({ phase }: { phase: string }) {
  const current = PHASES.indexOf(phase as (typeof PHASES)[number]);
  return (
    <ol aria-label={t('healthChecks.phases')} className="flex flex-wrap items-center gap-2">
      {STEPPER_PHASES.map((step, index) => {
        const stepIndex = PHASES.indexOf(step.phase);
        const done = current > stepIndex;
        const active = current === stepIndex || (step.phase === 'summarize' && current > stepIndex);
        return (
          <li key={step.phase} className="flex items-center gap-2">
            {index > 0 && <span className="h-px w-6 bg-slate-300" aria-hidden="true" />}
            <span
              aria-current={active ? 'step' : undefined}
              className={cn(
                'inline-flex items-center gap-1.5 rounded-full px-3 py-1 text-sm font-medium',
                active
                  ? 'bg-brand-600 text-white'
                  : done
                    ? 'bg-green-100 text-green-800'
                    : 'bg-slate-100 text-slate-700',
              )}
            >
              {done && !active && <CheckCircle2 className="size-4" aria-hidden="true" />}
              {say(step.label)}
            </span>
          </li>
        );
      })}
    </ol>
  );
}

/** A participant's progress, in words. */
const participantStatus = (status: 'pending' | 'in_progress' | 'completed') =>
  status === 'completed'
    ? t('healthChecks.participantCompleted')
    : status === 'in_progress'
      ? t('healthChecks.participantInProgress')
      : t('healthChecks.participantPending');

function ParticipantsTab({ id }: { id: string }) {
  const participants = useParticipants(id);
  if (participants.isPending)
    return <Spinner label={t('healthChecks.loadingParticipants')} className="py-8" />;
  if (participants.isError) {
    return (
      <p role="alert" className="text-sm text-red-700">
        {participants.error.message}
      </p>
    );
  }
  if (participants.data.length === 0) {
    return <Card className="p-8 text-center text-sm text-slate-600">{t('healthChecks.noParticipants')}</Card>;
  }
  return (
    <Card className="overflow-x-auto">
      <table className="w-full min-w-[560px] text-start text-sm">
        <thead className="border-b border-slate-200 text-slate-600">
          <tr>
            {[
              t('common.name'),
              t('healthChecks.status'),
              t('healthChecks.progress'),
              t('healthChecks.lastActivity'),
            ].map((column) => (
              <th key={column} scope="col" className="px-4 py-3 font-medium">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {participants.data.map((p) => (
            <tr key={p.id}>
              <td className="px-4 py-3">
                {/* 'Former member' (a catalogue key) for someone who deleted their account. */}
                <div className="font-medium text-slate-900">{say(p.name)}</div>
                <div className="text-xs text-slate-600">{p.email}</div>
              </td>
              <td className="px-4 py-3">
                <Badge
                  tone={p.status === 'completed' ? 'green' : p.status === 'in_progress' ? 'blue' : 'neutral'}
                >
                  {participantStatus(p.status)}
                </Badge>
              </td>
              <td className="px-4 py-3">
                <div className="flex items-center gap-2">
                  <ProgressBar
                    value={p.progress}
                    tone={progressColour(p.progress)}
                    label={t('healthChecks.progressOf', { name: say(p.name) })}
                    className="w-24"
                  />
                  <span>{percent(p.progress)}</span>
                </div>
              </td>
              <td className="px-4 py-3 text-slate-700">
                {p.lastActivity ? formatDateTime(p.lastActivity) : '—'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}

/** One figure of the check, with an optional line or bar under it. */
function Stat({
  label,
  testId,
  value,
  detail,
}: {
  label: string;
  testId: string;
  value: ReactNode;
  detail?: ReactNode;
}) {
  return (
    <Card>
      <CardContent className="flex flex-col gap-1 pt-6">
        <p className="text-sm text-slate-600">{label}</p>
        <p className="text-xl font-semibold" data-testid={testId}>
          {value}
        </p>
        {typeof detail === 'string' ? <p className="text-xs text-slate-600">{detail}</p> : detail}
      </CardContent>
    </Card>
  );
}
