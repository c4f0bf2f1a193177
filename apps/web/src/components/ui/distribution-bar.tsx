import { distributionBar, type RatingCounts } from '@pulsecheck/shared/results/rules';
import { cn } from '@/lib/cn';
import { t } from '@/lib/i18n';

/**
 * The three-part bar of a component's ratings: healthy, needs improvement, fire warning (don't-know is left
 * out of the bar and shown as a separate count, spec section 2). One accessible description for the whole.
 */
export function DistributionBar({ counts, className }: { counts: RatingCounts; className?: string }) {
  const bar = distributionBar(counts);
  const rated = counts.healthy + counts.needsImprovement + counts.fireWarning;
  const label = t('ui.distributionLabel', {
    healthy: counts.healthy,
    needsImprovement: counts.needsImprovement,
    fireWarning: counts.fireWarning,
    dontKnow: counts.dontKnow,
  });
  return (
    <div className={cn('flex items-center gap-3', className)}>
      <div
        role="img"
        aria-label={label}
        title={label}
        className="flex h-3 min-w-24 flex-1 overflow-hidden rounded-full bg-slate-200 print:border print:border-slate-400"
      >
        {rated > 0 && (
          <>
            <span className="h-full bg-green-600" style={{ width: `${bar.healthy}%` }} />
            <span className="h-full bg-amber-500" style={{ width: `${bar.needsImprovement}%` }} />
            <span className="h-full bg-red-600" style={{ width: `${bar.fireWarning}%` }} />
          </>
        )}
      </div>
      <span className="shrink-0 text-xs whitespace-nowrap text-slate-600">
        {t('ui.dontKnowCount', { count: counts.dontKnow })}
      </span>
    </div>
  );
}

/** The legend of the bar's colours. */
export function DistributionLegend({ className }: { className?: string }) {
  return (
    <ul
      className={cn('flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700', className)}
      aria-label={t('ui.legend')}
    >
      <li className="flex items-center gap-1.5">
        <span className="size-2.5 rounded-full bg-green-600" aria-hidden="true" /> {t('ui.healthy')}
      </li>
      <li className="flex items-center gap-1.5">
        <span className="size-2.5 rounded-full bg-amber-500" aria-hidden="true" /> {t('ui.needsImprovement')}
      </li>
      <li className="flex items-center gap-1.5">
        <span className="size-2.5 rounded-full bg-red-600" aria-hidden="true" /> {t('ui.fireWarning')}
      </li>
    </ul>
  );
}
