import type { TeamProgress } from '@pulsecheck/shared/participation/contract';
import { completionRate } from '@pulsecheck/shared/health-checks/rules';
import { Users } from 'lucide-react';
import { cn } from '@/lib/cn';

/** A labelled progress bar (role progressbar) with its value as text. */
export function Bar({ value, label, className }: { value: number; label: string; className?: string }) {
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value}
      className={cn('h-2 w-full overflow-hidden rounded-full bg-slate-200', className)}
    >
      <div className="h-full rounded-full bg-brand-600 transition-all" style={{ width: `${value}%` }} />
    </div>
  );
}

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
          <Users className="size-4" aria-hidden="true" /> Team Progress
        </h2>
        <span className="text-sm text-slate-700" data-testid="team-progress-count">
          {progress.completed} of {progress.total} completed
        </span>
      </div>
      {workspaceName && <p className="mt-1 text-xs text-slate-600">{workspaceName}</p>}
      <Bar value={rate} label="Team progress" className="mt-3" />
    </section>
  );
}
