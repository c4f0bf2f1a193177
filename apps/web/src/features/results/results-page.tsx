import { topics } from '@pulsecheck/shared/realtime/topics';
import { RESULTS_MESSAGES as M } from '@pulsecheck/shared/results/messages';
import type { ActionItem, ComponentResult, ResultsResponse } from '@pulsecheck/shared/results/schemas';
import { releaseMessage } from '@pulsecheck/shared/results/release';
import { HEALTH_LABEL_MESSAGES } from '@pulsecheck/shared/results/rules';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, ClipboardList, Flame, HeartPulse, Lock, Share2 } from 'lucide-react';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Deferred } from '@/components/ui/deferred';
import { DistributionLegend } from '@/components/ui/distribution-bar';
import { Logo } from '@/components/ui/logo';
import { Spinner } from '@/components/ui/spinner';
import { TOAST, toast } from '@/components/ui/toaster';
import { ApiError } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { useLiveEvents } from '@/lib/live-events';
import { useSession } from '@/lib/session';
import { checkTrackerQuery, csvUrl, planActions, resultsKeys, resultsQuery } from './api';
import { ActionItemRow, ComponentRow, type TrackerControl } from './component-row';
import { formatDate } from '@/lib/dates';
import { ExportButtons } from '@/components/ui/export-buttons';
import { PrintStyle } from '@/components/ui/print-style';
import { formats, say, t } from '@/lib/i18n';
import { BrandMark } from '@/components/branding/branding';

// Not needed to paint the results: the action item form (react-hook-form, zod, the dialog) loads when it is
// first opened, the follow-up form below the results beside them (decision 0006).
const TrackerIssueDialog = lazy(() =>
  import('./action-item-tracker').then((m) => ({ default: m.TrackerIssueDialog })),
);
const ActionItemDialog = lazy(() =>
  import('./action-item-dialog').then((m) => ({ default: m.ActionItemDialog })),
);
const NextSteps = lazy(() => import('./next-steps').then((m) => ({ default: m.NextSteps })));

/**
 * The results screen (spec section 2) for `/health-check/{id}/results` and the admin routes. What it shows is
 * what the API releases to this user (PRODUCT-DECISIONS 3).
 */
export function ResultsPage({ headerActions }: { headerActions?: ReactNode }) {
  const { healthCheckId = '' } = useParams();
  const inAdmin = useLocation().pathname.startsWith('/admin');
  const home = useSession().data?.canAdmin ? '/admin/dashboard' : '/dashboard';
  const Shell = inAdmin ? 'div' : 'main';
  return (
    <>
      <PrintStyle />
      {!inAdmin && (
        <header className="border-b border-slate-200 bg-white" data-print-hide>
          <div className="mx-auto flex h-16 max-w-6xl items-center justify-between px-4 sm:px-6">
            <Logo to={home} />
            {headerActions}
          </div>
        </header>
      )}
      <Shell className={cn('mx-auto w-full max-w-6xl', !inAdmin && 'px-4 py-6 sm:px-6')}>
        {healthCheckId ? (
          <Results
            id={healthCheckId}
            inAdmin={inAdmin}
            // Below 1024 px the admin top bar has the bell; on wider screens it sits in the results header.
            headerActions={inAdmin ? <div className="hidden lg:block">{headerActions}</div> : undefined}
          />
        ) : (
          <LoadError message={say(M.noId)} />
        )}
      </Shell>
    </>
  );
}

function LoadError({ message }: { message: string }) {
  return (
    <Card className="mx-auto mt-8 max-w-lg text-center" role="alert">
      <CardHeader>
        <AlertTriangle className="mx-auto size-8 text-red-600" aria-hidden="true" />
        <h1 className="text-xl font-semibold text-slate-900">{say(M.errorTitle)}</h1>
        <CardDescription>{message}</CardDescription>
      </CardHeader>
      <CardContent className="flex justify-center gap-3">
        <Button onClick={() => window.location.reload()}>{t('common.tryAgain')}</Button>
        <Button variant="secondary" asChild>
          <Link to="/">{t('results.page.returnHome')}</Link>
        </Button>
      </CardContent>
    </Card>
  );
}

function Results({
  id,
  inAdmin,
  headerActions,
}: {
  id: string;
  inAdmin: boolean;
  headerActions?: ReactNode;
}) {
  const queryClient = useQueryClient();
  const query = useQuery(resultsQuery(id));
  const { hash } = useLocation();
  useLiveEvents([topics.healthCheck(id)], () => {
    void queryClient.invalidateQueries({ queryKey: resultsKeys.results(id) });
  });

  if (query.isPending) return <Spinner label={t('results.page.loading')} className="py-16" />;
  if (query.isError) {
    const error = query.error;
    const message = say(error instanceof ApiError && error.status === 404 ? M.notFound : error.message);
    return <LoadError message={message} />;
  }
  const data = query.data;
  return (
    <div className="flex flex-col gap-6">
      <ResultsHeader data={data} headerActions={headerActions} />
      {/* The header paints first; the results under it (29 areas with their comments) render in slices. */}
      <Deferred>
        {data.release.state === 'released' && data.components ? (
          <ReleasedResults data={data} components={data.components} />
        ) : (
          <Unreleased data={data} />
        )}
        <Suspense fallback={null}>
          <NextSteps data={data} inAdmin={inAdmin} />
        </Suspense>
        <ScrollToHash hash={hash} />
      </Deferred>
    </div>
  );
}

/**
 * Links such as 'View Roadmap' point at #action-items: the section exists only once the results under the header
 * have rendered, so this, rendered after them, scrolls there when they first have.
 */
function ScrollToHash({ hash }: { hash: string }) {
  useEffect(() => {
    if (hash) document.getElementById(hash.slice(1))?.scrollIntoView();
  }, [hash]);
  return null;
}

function ResultsHeader({ data, headerActions }: { data: ResultsResponse; headerActions?: ReactNode }) {
  const { healthCheck, participants, viewer } = data;
  const queryClient = useQueryClient();
  const plan = useMutation({
    mutationFn: () => planActions(healthCheck.id),
    onSuccess: async () => {
      toast.success(t('results.page.planningStarted'), { duration: TOAST.save });
      await queryClient.invalidateQueries({ queryKey: resultsKeys.results(healthCheck.id) });
    },
    onError: (error) => toast.error(say(error.message)),
  });
  const share = async () => {
    try {
      await navigator.clipboard.writeText(`${window.location.origin}/health-check/${healthCheck.id}/results`);
      toast.success(say(M.linkCopied), { duration: TOAST.copy });
    } catch {
      toast.error(t('results.page.copyFailed'));
    }
  };
  const released = data.release.state === 'released';
  return (
    <section
      aria-labelledby="results-title"
      className="flex flex-col gap-4 md:flex-row md:items-start md:justify-between"
    >
      <div className="min-w-0">
        <BrandMark branding={data.branding} className="mb-3" />
        <p className="text-sm font-medium text-brand-700">{healthCheck.workspaceName}</p>
        <h1 id="results-title" className="text-2xl font-bold break-words text-slate-900 sm:text-3xl">
          {healthCheck.title}
        </h1>
        {healthCheck.description && <p className="mt-1 text-slate-600">{healthCheck.description}</p>}
        <p className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-600">
          <span>
            {healthCheck.completedAt
              ? t('results.page.completedOn', { date: formatDate(healthCheck.completedAt) })
              : t('results.page.startedOn', { date: formatDate(healthCheck.createdAt) })}
          </span>
          <span>
            {t('results.page.participantsCompleted', {
              completed: participants.completed,
              total: participants.total,
            })}
          </span>
          {healthCheck.phase === 'vote' && (
            <span>
              {t('results.page.voted', { voted: data.voting.voted, eligible: data.voting.eligible })}
            </span>
          )}
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-2" data-print-hide>
        {viewer.canPlan && (
          <Button onClick={() => plan.mutate()} disabled={plan.isPending}>
            <ClipboardList aria-hidden="true" />
            {plan.isPending ? t('results.page.planning') : t('results.page.plan')}
          </Button>
        )}
        {released && <ExportButtons csvHref={csvUrl(healthCheck.id)} />}
        <Button variant="secondary" onClick={() => void share()}>
          <Share2 aria-hidden="true" />
          {t('results.page.share')}
        </Button>
        {headerActions}
      </div>
    </section>
  );
}

function Unreleased({ data }: { data: ResultsResponse }) {
  const { state, missingResponses } = data.release;
  const text = say(releaseMessage(state, missingResponses));
  return (
    <Card>
      <CardContent className="flex flex-col items-center gap-2 p-10 text-center">
        <Lock className="size-8 text-slate-500" aria-hidden="true" />
        <h2 className="text-lg font-semibold text-slate-900">{t('results.unreleased.title')}</h2>
        <p className="max-w-md text-slate-600" data-testid="release-message">
          {text}
        </p>
        {state === 'collecting' && (
          <p className="text-sm text-slate-600">
            {t('results.unreleased.collecting', {
              completed: data.participants.completed,
              total: data.participants.total,
            })}
          </p>
        )}
        {state === 'below-threshold' && (
          <p className="text-sm text-slate-600">
            {t('results.unreleased.belowThreshold', { minimum: data.healthCheck.minResponses })}
          </p>
        )}
      </CardContent>
    </Card>
  );
}

const HEALTH_TONE: Record<string, 'green' | 'yellow' | 'red' | 'neutral' | 'blue'> = {
  'Mostly Healthy': 'green',
  'Mixed Health': 'blue',
  'Needs Attention': 'yellow',
  'Needs Immediate Attention': 'red',
};

function SummaryCard({
  icon,
  label,
  testId,
  value,
  children,
}: {
  icon: ReactNode;
  label: string;
  testId: string;
  value: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card data-print-block>
      <CardHeader>
        <CardDescription className="flex items-center gap-2">
          {icon} {label}
        </CardDescription>
        <p className="text-lg font-semibold text-slate-900" data-testid={testId}>
          {value}
        </p>
      </CardHeader>
      <CardContent className="text-sm text-slate-600">{children}</CardContent>
    </Card>
  );
}

function ReleasedResults({ data, components }: { data: ResultsResponse; components: ComponentResult[] }) {
  const [dialog, setDialog] = useState<{ item?: ActionItem; componentId?: string | null } | null>(null);
  // The dialog stays mounted once opened, so it closes as a dialog does (focus back where it was).
  const dialogUsed = useDialogUsed(dialog !== null);
  const items = data.actionItems ?? [];
  const top = components[0];
  const done = items.filter((i) => i.status === 'completed').length;
  const manages = data.viewer.manages;
  // The tracker of the check's workspace (issue 36): without one, no tracker control shows.
  const checkTracker = useQuery({ ...checkTrackerQuery(data.healthCheck.id), enabled: manages });
  const [issueFor, setIssueFor] = useState<string | null>(null);
  const issueDialogUsed = useDialogUsed(issueFor !== null);
  const connected = checkTracker.data?.tracker;
  const tracker: TrackerControl | undefined =
    manages && connected ? { ...connected, open: (item) => setIssueFor(item.id) } : undefined;
  const issueItem = items.find((i) => i.id === issueFor);
  return (
    <>
      <section aria-label={t('results.summary.label')} className="grid gap-4 md:grid-cols-3">
        <SummaryCard
          icon={<Flame className="size-4 text-red-600" aria-hidden="true" />}
          label={t('results.summary.topPriority')}
          testId="top-priority"
          value={top?.title ?? t('results.summary.noComponents')}
        >
          {top
            ? top.dots === null
              ? t('results.summary.fireWarnings', { fire: top.fireWarning })
              : t('results.summary.fireWarningsAndDots', { fire: top.fireWarning, dots: top.dots })
            : null}
        </SummaryCard>
        <SummaryCard
          icon={<ClipboardList className="size-4 text-brand-700" aria-hidden="true" />}
          label={t('results.summary.actionItems')}
          testId="action-item-count"
          value={formats().number(items.length)}
        >
          {items.length === 0 ? t('results.summary.noneYet') : t('results.summary.completed', { done })}
        </SummaryCard>
        <SummaryCard
          icon={<HeartPulse className="size-4 text-green-700" aria-hidden="true" />}
          label={t('results.summary.overallHealth')}
          testId="overall-health"
          value={data.overallHealth && t(HEALTH_LABEL_MESSAGES[data.overallHealth])}
        >
          {data.trend ? (
            t('results.summary.lastTime', {
              health: t(HEALTH_LABEL_MESSAGES[data.trend.previous.overallHealth]),
              title: data.trend.previous.title,
            })
          ) : (
            <Badge tone={HEALTH_TONE[data.overallHealth ?? ''] ?? 'neutral'}>
              {t('results.summary.responses', { count: data.participants.completed })}
            </Badge>
          )}
        </SummaryCard>
      </section>

      <section aria-labelledby="prioritized-title">
        <div className="mb-3 flex flex-wrap items-end justify-between gap-2">
          <div>
            <h2 id="prioritized-title" className="text-xl font-semibold text-slate-900">
              {t('results.prioritized.title')}
            </h2>
            <p className="text-sm text-slate-600">{t('results.prioritized.description')}</p>
          </div>
          <DistributionLegend />
        </div>
        <ol className="flex flex-col gap-3" aria-label={t('results.prioritized.title')}>
          {components.map((component) => (
            <ComponentRow
              key={component.id}
              component={component}
              items={items.filter((i) => i.componentId === component.id)}
              manages={manages}
              onAdd={() => setDialog({ componentId: component.id })}
              onEdit={(item) => setDialog({ item })}
              tracker={tracker}
            />
          ))}
        </ol>
      </section>

      <section aria-labelledby="action-items-title" id="action-items">
        <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
          <h2 id="action-items-title" className="text-xl font-semibold text-slate-900">
            {t('results.summary.actionItems')}
          </h2>
          {manages && (
            <Button onClick={() => setDialog({ componentId: null })} data-print-hide>
              {t('results.actionItem.add')}
            </Button>
          )}
        </div>
        {items.length === 0 ? (
          <Card>
            <CardContent className="p-6 text-sm text-slate-600">
              {manages ? t('results.actionItems.emptyForManager') : t('results.actionItems.empty')}
            </CardContent>
          </Card>
        ) : (
          <ul className="flex flex-col gap-2">
            {items.map((item) => (
              <ActionItemRow
                key={item.id}
                item={item}
                area={components.find((c) => c.id === item.componentId)?.title}
                onEdit={manages ? () => setDialog({ item }) : undefined}
                tracker={tracker}
              />
            ))}
          </ul>
        )}
      </section>
      {manages && dialogUsed && (
        <Suspense fallback={null}>
          <ActionItemDialog
            healthCheckId={data.healthCheck.id}
            components={components}
            item={dialog?.item}
            componentId={dialog?.componentId}
            open={dialog !== null}
            onOpenChange={(open) => !open && setDialog(null)}
          />
        </Suspense>
      )}
      {tracker && issueDialogUsed && issueItem && (
        <Suspense fallback={null}>
          <TrackerIssueDialog
            healthCheckId={data.healthCheck.id}
            item={issueItem}
            kind={tracker.kind}
            label={tracker.label}
            open={issueFor !== null}
            onOpenChange={(open) => !open && setIssueFor(null)}
          />
        </Suspense>
      )}
    </>
  );
}

/** True from the first time `open` is true. */
function useDialogUsed(open: boolean) {
  const [used, setUsed] = useState(open);
  if (open && !used) setUsed(true);
  return used || open;
}
