import type { TeamProgress } from '@pulsecheck/shared/participation/contract';
import { completionRate } from '@pulsecheck/shared/health-checks/rules';
import { Users } from 'lucide-react';
import { ProgressBar } from '@/components/ui/progress-bar';
import { t } from '@/lib/i18n';

/** 'Team Progress': completed of total participants. */
export function TeamProgressCard({
  progress,
  workspaceName,
}: {
  progress: TeamProgress;
  workspaceName?: string;
}) {
  const rate = completionRate(progress.completed, progress.total);
  return (
    <section
      aria-labelledby="team-progress-title"
      className="rounded-xl border border-slate-200 bg-white p-4"
    >
      <div className="flex items-center justify-between gap-2">
        <h2 id="team-progress-title" className="flex items-center gap-2 text-sm font-semibold text-slate-900">
          <Users className="size-4" aria-hidden="true" /> {t('participation.teamProgress.title')}
        </h2>
        <span className="text-sm text-slate-700" data-testid="team-progress-count">
          {t('participation.teamProgress.count', { completed: progress.completed, total: progress.total })}
        </span>
      </div>
      {workspaceName && <p className="mt-1 text-xs text-slate-600">{workspaceName}</p>}
      <ProgressBar value={rate} label={t('participation.teamProgress.label')} className="mt-3" />
    </section>
  );
}
