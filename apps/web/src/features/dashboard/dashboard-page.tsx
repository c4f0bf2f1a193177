import type { DashboardItem } from '@pulsecheck/shared/dashboard/schemas';
import { DASHBOARD_MESSAGES, dashboardCsv } from '@pulsecheck/shared/dashboard/rules';
import type { LoopDashboardItem } from '@pulsecheck/shared/loops/contract';
import { LOOP_LINKS } from '@pulsecheck/shared/loops/links';
import { dashboardStatus, progressColour } from '@pulsecheck/shared/health-checks/rules';
import { HEALTH_CHECK_MESSAGES } from '@pulsecheck/shared/health-checks/messages';
import { WORKSPACE_MESSAGES } from '@pulsecheck/shared/workspaces/messages';
import type { TemplateSummary } from '@pulsecheck/shared/templates/schemas';
import { Activity, Building2, Download, LayoutTemplate, Percent, Plus, Share2, Users } from 'lucide-react';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Deferred } from '@/components/ui/deferred';
import { ProgressBar } from '@/components/ui/progress-bar';
import { Spinner } from '@/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { TOAST, toast } from '@/components/ui/toaster';
import { formatDateTime } from '@/lib/dates';
import { formats, say, t } from '@/lib/i18n';
import { useDashboard, useLiveDashboard } from './api';
import {
  csvFileName,
  FILTERS,
  itemsOf,
  readView,
  viewParams,
  viewUrl,
  type DashboardView,
  type Filter,
  type Tab,
} from './view';
import { LoadFailed, StateCard } from '@/components/ui/state-card';
import { ActionsToFollowUp } from './actions-to-follow-up';

// The share dialog's code (and the dialog primitive's) loads when it first opens.
const ShareViewDialog = lazy(() =>
  import('./share-view-dialog').then((m) => ({ default: m.ShareViewDialog })),
);

const STATUS_TONE = { active: 'blue', voting: 'purple', completed: 'green' } as const;

/** A status's words on the dashboard (and in its download). */
const STATUS_KEY = {
  active: 'dashboard.statusActive',
  voting: 'dashboard.statusVoting',
  completed: 'dashboard.statusCompleted',
} as const;

const statusLabel = (status: string) => t(STATUS_KEY[dashboardStatus(status)]);

/** A rate out of 100 as a percentage in the app's language. */
const percent = (rate: number) => formats().percent(rate / 100);

/** A filter button's words. */
const filterLabel = (filter: Filter) =>
  filter === 'all'
    ? t('dashboard.filterAll')
    : filter === 'loops'
      ? t('dashboard.filterLoops')
      : t('dashboard.filterHealthChecks');

/** The screen's name and, once known, the workspace's (a blank line until then, so nothing moves). */
function Heading({ workspace = '\u00a0' }: { workspace?: string }) {
  return (
    <div>
      <h1 className="text-2xl font-semibold text-slate-900">{t('dashboard.title')}</h1>
      <p className="mt-1 text-sm text-slate-600">{workspace}</p>
    </div>
  );
}

export function DashboardPage() {
  const dashboard = useDashboard();
  // The filter and tab live in the address, so a reload, the back button and a shared link keep the view.
  const [params, setParams] = useSearchParams();
  const view = readView(params);
  const setView = (next: Partial<DashboardView>) =>
    setParams(viewParams({ ...view, ...next }), { replace: true });
  const [sharing, setSharing] = useState(false);
  const [copied, setCopied] = useState<'copied' | 'failed' | null>(null);
  useLiveDashboard(dashboard.data?.workspace?.id);

  if (dashboard.isPending) {
    // The heading paints with the frame, before the data: the screen is named at once (and its largest text
    // does not wait for the network).
    return (
      <div className="flex flex-col gap-6">
        <Heading />
        <Spinner label={t('dashboard.loading')} className="py-16" />
      </div>
    );
  }
  if (dashboard.isError) {
    return (
      <LoadFailed
        title={t('dashboard.loadFailed')}
        headingLevel={1}
        message={dashboard.error.message}
        onRetry={() => void dashboard.refetch()}
      />
    );
  }
  const { workspace, items, loops, globalTemplates, statsByFilter, actionsToFollowUp } = dashboard.data;
  if (!workspace) {
    return (
      <Card className="mx-auto max-w-md p-8 text-center">
        <Building2 className="mx-auto size-10 text-slate-400" aria-hidden="true" />
        <h1 className="mt-3 text-lg font-semibold">{say(WORKSPACE_MESSAGES.noWorkspace)}</h1>
        <p className="mt-2 text-sm text-slate-600">{say(WORKSPACE_MESSAGES.noWorkspaceText)}</p>
      </Card>
    );
  }

  const lists = itemsOf({ healthChecks: items, loops }, view.filter);
  // Only health checks have a join link (a loop's rounds are e-mailed to each member).
  const joinable = lists.active.filter((item) => item.kind === 'health-check');
  // The stat cards and tab counts follow the filter (the server counts them, by the shared rule).
  const stats = statsByFilter[view.filter];
  const { activeCount, completedCount } = stats;
  const shareUrl = viewUrl(window.location.origin, view);

  // The download holds exactly what the filter and tab list, one row each.
  const download = () => {
    const blob = new Blob([dashboardCsv(lists[view.tab], statusLabel, say)], {
      type: 'text/csv;charset=utf-8',
    });
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = csvFileName(view, new Date().toISOString().slice(0, 10));
    document.body.append(link);
    link.click();
    link.remove();
    URL.revokeObjectURL(url);
  };

  // Share copies the link to this view at once; the dialog shows it (to copy by hand where the browser does not
  // allow the page to) with the join links of the active items.
  const share = async () => {
    setCopied(null);
    setSharing(true);
    const ok = await copyLink(shareUrl);
    // Where the browser has no clipboard (a plain-http address, a refusal), the dialog selects the link to copy
    // by hand.
    setCopied(ok ? 'copied' : 'failed');
  };

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <Heading workspace={workspace.name} />
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" asChild>
            <Link to="/admin/templates?type=loop">
              <Plus aria-hidden="true" />
              {t('dashboard.createLoop')}
            </Link>
          </Button>
          <Button asChild>
            <Link to="/admin/templates?type=health-check">
              <Plus aria-hidden="true" />
              {t('dashboard.createHealthCheck')}
            </Link>
          </Button>
          <Button variant="ghost" asChild>
            <Link to="/admin/templates">{t('dashboard.allTemplates')}</Link>
          </Button>
          <Button
            variant="secondary"
            size="icon"
            aria-label={t('dashboard.download')}
            title={t('dashboard.download')}
            onClick={download}
          >
            <Download aria-hidden="true" />
          </Button>
          <Button
            variant="secondary"
            size="icon"
            aria-label={t('dashboard.share')}
            title={t('dashboard.share')}
            onClick={() => void share()}
          >
            <Share2 aria-hidden="true" />
          </Button>
        </div>
      </div>

      <div role="group" aria-label={t('dashboard.filter')} className="flex flex-wrap gap-2">
        {FILTERS.map(({ value }) => (
          <Button
            key={value}
            size="sm"
            variant={view.filter === value ? 'primary' : 'secondary'}
            aria-pressed={view.filter === value}
            onClick={() => setView({ filter: value })}
          >
            {filterLabel(value)}
          </Button>
        ))}
      </div>

      <div className="grid gap-4 sm:grid-cols-3">
        <StatCard
          label={t('dashboard.activeSurveys')}
          testId="Active Surveys"
          value={formats().number(stats.activeSurveys)}
          icon={<Activity aria-hidden="true" />}
        />
        <StatCard
          label={t('dashboard.totalResponses')}
          testId="Total Responses"
          value={formats().number(stats.totalResponses)}
          icon={<Users aria-hidden="true" />}
        />
        <StatCard
          label={t('dashboard.avgCompletionRate')}
          testId="Avg. Completion Rate"
          value={percent(stats.avgCompletionRate)}
          icon={<Percent aria-hidden="true" />}
        />
      </div>

      <ActionsToFollowUp actions={actionsToFollowUp} />

      {/* The heading and figures paint first; the lists under them (twenty checks and more) render in slices. */}
      <Deferred>
        <Tabs value={view.tab} onValueChange={(tab) => setView({ tab: tab as Tab })}>
          <TabsList aria-label={t('dashboard.items')}>
            <TabsTrigger value="overview">{t('dashboard.tabOverview')}</TabsTrigger>
            <TabsTrigger value="active">
              {t('dashboard.tabActive', { count: formats().number(activeCount) })}
            </TabsTrigger>
            <TabsTrigger value="completed">
              {t('dashboard.tabCompleted', { count: formats().number(completedCount) })}
            </TabsTrigger>
          </TabsList>
          <TabsContent value="overview">
            <ItemList items={lists.overview} empty={say(DASHBOARD_MESSAGES.noItems)} filter={view.filter} />
          </TabsContent>
          <TabsContent value="active">
            <ItemList items={lists.active} empty={say(DASHBOARD_MESSAGES.noActive)} filter={view.filter} />
          </TabsContent>
          <TabsContent value="completed">
            <ItemList
              items={lists.completed}
              empty={say(DASHBOARD_MESSAGES.noCompleted)}
              filter={view.filter}
            />
          </TabsContent>
        </Tabs>

        <GlobalTemplates templates={globalTemplates} />
      </Deferred>

      {sharing && (
        <Suspense fallback={null}>
          <ShareViewDialog
            onClose={() => setSharing(false)}
            shareUrl={shareUrl}
            copied={copied}
            onCopy={(url) => void copyLink(url)}
            onCopyView={() => void copyLink(shareUrl).then((ok) => setCopied(ok ? 'copied' : 'failed'))}
            joinable={joinable}
          />
        </Suspense>
      )}
    </div>
  );
}

/** Copies `url`, confirming with the spec's toast; false where the browser has no clipboard or refuses. */
async function copyLink(url: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(url);
    toast.success(say(HEALTH_CHECK_MESSAGES.linkCopied), { duration: TOAST.copy });
    return true;
  } catch {
    toast.error(t('dashboard.copyFailed'));
    return false;
  }
}

/** A figure of the dashboard; `testId` names it whatever the language. */
function StatCard({
  label,
  testId,
  value,
  icon,
}: {
  label: string;
  testId: string;
  value: string;
  icon: ReactNode;
}) {
  return (
    <Card>
      <CardContent className="flex items-center gap-4 pt-6">
        <span className="flex size-10 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
          {icon}
        </span>
        <div>
          <p className="text-sm text-slate-600">{label}</p>
          <p className="text-2xl font-semibold text-slate-900" data-testid={`stat-${testId}`}>
            {value}
          </p>
        </div>
      </CardContent>
    </Card>
  );
}

/** What an empty list suggests, by the filter. */
const emptyHint = (filter: Filter) =>
  filter === 'all'
    ? t('dashboard.emptyAll')
    : filter === 'loops'
      ? t('dashboard.emptyLoops')
      : t('dashboard.emptyHealthChecks');

function ItemList({
  items,
  empty,
  filter,
}: {
  items: (DashboardItem | LoopDashboardItem)[];
  empty: string;
  filter: Filter;
}) {
  if (items.length === 0) return <StateCard title={empty} message={emptyHint(filter)} />;
  return (
    <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
      {items.map((item) => (
        <li key={item.id}>{item.kind === 'loop' ? <LoopCard item={item} /> : <ItemCard item={item} />}</li>
      ))}
    </ul>
  );
}

const LOOP_STATUS = {
  active: { key: 'dashboard.statusActive', tone: 'blue' },
  paused: { key: 'dashboard.statusPaused', tone: 'yellow' },
  completed: { key: 'dashboard.statusCompleted', tone: 'green' },
} as const;

/** A listed item: its badges and kind, title and description, then what the kind shows. */
function ItemShell({
  item,
  badges,
  kind,
  children,
}: {
  item: { title: string; description: string | null };
  badges: ReactNode;
  kind: string;
  children: ReactNode;
}) {
  return (
    <Card className="flex h-full flex-col" aria-label={item.title} role="article">
      <CardHeader>
        <div className="flex flex-wrap items-center gap-2">
          {badges}
          <span className="text-xs text-slate-600">{kind}</span>
        </div>
        <CardTitle className="text-base">{item.title}</CardTitle>
        {item.description && <CardDescription className="line-clamp-2">{item.description}</CardDescription>}
      </CardHeader>
      <CardContent className="mt-auto flex flex-col gap-3">{children}</CardContent>
    </Card>
  );
}

/** Responses of all asked, and the rate as a bar. */
function Progress({
  item,
  summary,
  label,
}: {
  item: DashboardItem | LoopDashboardItem;
  summary: string;
  label: string;
}) {
  return (
    <>
      <div className="flex justify-between text-sm text-slate-600">
        <span>{summary}</span>
        <span data-testid="completion-rate">{percent(item.completionRate)}</span>
      </div>
      <ProgressBar value={item.completionRate} tone={progressColour(item.completionRate)} label={label} />
    </>
  );
}

const links = (list: [to: string, label: string][]) => (
  <div className="flex flex-wrap gap-2">
    {list.map(([to, label]) => (
      <Button key={label} variant="secondary" size="sm" asChild>
        <Link to={to}>{label}</Link>
      </Button>
    ))}
  </div>
);

/**
 * A loop by its status (spec section 4): an active one links to its completion status and a preview of its
 * results, a completed one to its full results and insights. Its figures are the current (or last) round's.
 */
function LoopCard({ item }: { item: LoopDashboardItem }) {
  const status = LOOP_STATUS[item.loopStatus];
  const counts = {
    responses: formats().number(item.responses),
    total: item.totalParticipants,
  };
  return (
    <ItemShell
      item={item}
      badges={<Badge tone={status.tone}>{t(status.key)}</Badge>}
      kind={t('dashboard.loop')}
    >
      {item.currentRound === null ? (
        <p className="text-sm text-slate-600">
          {item.nextRoundAt
            ? t('dashboard.firstRoundOpens', { date: formatDateTime(item.nextRoundAt) })
            : t('dashboard.noRound')}
        </p>
      ) : (
        <Progress
          item={item}
          summary={t('dashboard.roundSummary', {
            round: formats().number(item.currentRound),
            open: String(item.roundOpen),
            ...counts,
          })}
          label={t('dashboard.responseRateOf', { title: item.title })}
        />
      )}
      {item.status === 'completed'
        ? links([
            [LOOP_LINKS.results(item.id), t('dashboard.viewResults')],
            [LOOP_LINKS.insights(item.id), t('dashboard.insights')],
          ])
        : links([
            [LOOP_LINKS.completionStatus(item.id), t('dashboard.completionStatus')],
            [LOOP_LINKS.results(item.id), t('dashboard.previewResults')],
          ])}
    </ItemShell>
  );
}

function ItemCard({ item }: { item: DashboardItem }) {
  const status = dashboardStatus(item.status);
  return (
    <ItemShell
      item={item}
      badges={
        <>
          <Badge tone={STATUS_TONE[status]}>{t(STATUS_KEY[status])}</Badge>
          {item.overdue && <Badge tone="red">{t('dashboard.overdue')}</Badge>}
        </>
      }
      kind={t('dashboard.healthCheck')}
    >
      <Progress
        item={item}
        summary={t('dashboard.responses', {
          responses: formats().number(item.responses),
          total: item.totalParticipants,
        })}
        label={t('dashboard.completionOf', { title: item.title })}
      />
      {status === 'completed'
        ? links([[`/admin/health-check/${item.id}/results`, t('dashboard.viewResults')]])
        : links([[`/admin/health-check/${item.id}/manage`, t('dashboard.manage')]])}
    </ItemShell>
  );
}

function GlobalTemplates({ templates }: { templates: TemplateSummary[] }) {
  return (
    <section aria-labelledby="global-templates">
      <h2 id="global-templates" className="mb-3 text-lg font-semibold text-slate-900">
        {t('dashboard.globalTemplates')}
      </h2>
      {templates.length === 0 ? (
        <Card className="p-6 text-center text-sm text-slate-600">{say(DASHBOARD_MESSAGES.noGlobal)}</Card>
      ) : (
        <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
          {templates.map((template) => (
            <li key={template.id}>
              <Card className="flex h-full flex-col">
                <CardHeader>
                  <div className="flex items-center gap-2 text-brand-700">
                    <LayoutTemplate className="size-4" aria-hidden="true" />
                    <Badge tone="brand">{t('dashboard.global')}</Badge>
                    <span className="text-xs text-slate-600">
                      {template.type === 'loop' ? t('dashboard.loop') : t('dashboard.healthCheck')}
                    </span>
                  </div>
                  <CardTitle className="text-base">{template.title}</CardTitle>
                  {template.description && <CardDescription>{template.description}</CardDescription>}
                </CardHeader>
                <CardContent className="mt-auto">
                  <Button size="sm" asChild>
                    <Link
                      to={`/admin/templates/${template.id}/configure`}
                      aria-label={t('dashboard.useTemplateLabel', { title: template.title })}
                    >
                      {t('dashboard.useTemplate')}
                    </Link>
                  </Button>
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
