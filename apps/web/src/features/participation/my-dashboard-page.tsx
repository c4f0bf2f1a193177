import type { MyHealthCheck } from '@pulsecheck/shared/participation/contract';
import { completionRate, PHASE_LABELS } from '@pulsecheck/shared/health-checks/rules';
import {
  nextActionFor,
  PARTICIPANT_STATUS_LABELS,
  PARTICIPATION_MESSAGES as M,
} from '@pulsecheck/shared/participation/rules';
import { useQuery } from '@tanstack/react-query';
import { ClipboardList } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ProgressBar } from '@/components/ui/progress-bar';
import { Spinner } from '@/components/ui/spinner';
import { myHealthChecksQuery } from './api';
import { ParticipationShell } from './participation-shell';
import { StateCard } from '@/components/ui/state-card';
import { formats, say, t } from '@/lib/i18n';

const STATUS_TONE = { pending: 'neutral', in_progress: 'blue', completed: 'green' } as const;

/**
 * /dashboard: a participant's home (PRODUCT-DECISIONS 4): their checks, status and what to do next. `before`
 * is what other features show first (the open loop rounds, composed in app/).
 */
export function MyDashboardPage({ before }: { before?: ReactNode }) {
  const query = useQuery(myHealthChecksQuery());
  return (
    <ParticipationShell
      title={t('participation.dashboard.title')}
      description={t('participation.dashboard.description')}
    >
      {before}
      {query.isPending && <Spinner label={t('participation.dashboard.loading')} className="py-12" />}
      {query.isError && (
        <StateCard
          tone="error"
          title={t('participation.dashboard.loadFailed')}
          message={query.error.message}
          actions={<Button onClick={() => void query.refetch()}>{t('common.tryAgain')}</Button>}
        />
      )}
      {query.data && query.data.healthChecks.length === 0 && (
        <StateCard
          title={t('participation.dashboard.emptyTitle')}
          message={t('participation.dashboard.emptyMessage')}
        />
      )}
      {query.data && query.data.healthChecks.length > 0 && (
        <ul className="grid gap-4 md:grid-cols-2">
          {query.data.healthChecks.map((item) => (
            <HealthCheckCard key={item.id} item={item} />
          ))}
        </ul>
      )}
    </ParticipationShell>
  );
}

function HealthCheckCard({ item }: { item: MyHealthCheck }) {
  const action = nextActionFor(item);
  const rate = completionRate(item.teamProgress.completed, item.teamProgress.total);
  return (
    <li className="flex flex-col rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <div className="flex items-start justify-between gap-3">
        <div>
          <h2 className="text-lg font-semibold text-slate-900">{item.title}</h2>
          <p className="text-sm text-slate-600">{item.workspaceName}</p>
        </div>
        <ClipboardList className="size-5 shrink-0 text-brand-700" aria-hidden="true" />
      </div>
      <div className="mt-3 flex flex-wrap gap-2">
        <Badge tone={STATUS_TONE[item.participantStatus]}>
          {item.participantStatus === 'in_progress'
            ? t('participation.dashboard.statusWithProgress', {
                status: say(PARTICIPANT_STATUS_LABELS[item.participantStatus]),
                percent: formats().percent(item.progress / 100),
              })
            : say(PARTICIPANT_STATUS_LABELS[item.participantStatus])}
        </Badge>
        <Badge tone="brand">
          {t('participation.dashboard.phase', { phase: say(PHASE_LABELS[item.phase]) })}
        </Badge>
      </div>
      <div className="mt-4">
        <div className="flex justify-between text-xs text-slate-700">
          <span>{t('participation.teamProgress.label')}</span>
          <span>
            {t('participation.teamProgress.count', {
              completed: item.teamProgress.completed,
              total: item.teamProgress.total,
            })}
          </span>
        </div>
        <ProgressBar
          value={rate}
          label={t('participation.dashboard.progressOf', { title: item.title })}
          className="mt-1"
        />
      </div>
      <div className="mt-5 flex-1 content-end">
        {action ? (
          <Button asChild className="w-full">
            <Link to={action.to}>{say(action.label)}</Link>
          </Button>
        ) : (
          <p className="text-sm text-slate-600">
            {item.participantStatus === 'completed'
              ? t('participation.dashboard.resultsNotShared')
              : say(M.ratingClosed)}
          </p>
        )}
      </div>
    </li>
  );
}
