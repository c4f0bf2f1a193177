import { HIGHLIGHTED_TOP } from '@pulsecheck/shared/results/rules';
import type { ActionItem, ComponentResult } from '@pulsecheck/shared/results/schemas';
import type { TrackerKind } from '@pulsecheck/shared/trackers/rules';
import { TrackerIssueLine } from './tracker-issue-line';
import { ArrowDownRight, ArrowRight, ArrowUpRight, ChevronDown } from 'lucide-react';
import { useId, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { DistributionBar } from '@/components/ui/distribution-bar';
import { cn } from '@/lib/cn';
import { formatDate, formatDay } from '@/lib/dates';
import { usePrinting } from '@/lib/printing';
import { say, t } from '@/lib/i18n';
import { FollowUpEffects } from './follow-up-effects';

/** An action item's status as the screen names it (a function: the catalogue loads after this module). */
export const statusLabels = (): Record<ActionItem['status'], string> => ({
  pending: t('results.status.pending'),
  'in-progress': t('results.status.inProgress'),
  completed: t('results.status.completed'),
});

function TrendBadge({ trend }: { trend: ComponentResult['trend'] }) {
  if (!trend) return null;
  const config = {
    better: { icon: ArrowUpRight, text: t('results.trend.better'), tone: 'green' as const },
    same: { icon: ArrowRight, text: t('results.trend.same'), tone: 'neutral' as const },
    worse: { icon: ArrowDownRight, text: t('results.trend.worse'), tone: 'red' as const },
  }[trend];
  const Icon = config.icon;
  return (
    <Badge tone={config.tone} className="gap-1">
      <Icon className="size-3 rtl:-scale-x-100" aria-hidden="true" />
      {config.text}
    </Badge>
  );
}

/** One of the three summary cards: a labelled figure with a line of context under it. */

export function ComponentRow({
  component,
  items,
  manages,
  onAdd,
  onEdit,
  tracker,
}: {
  component: ComponentResult;
  items: ActionItem[];
  manages: boolean;
  onAdd: () => void;
  onEdit: (item: ActionItem) => void;
  tracker?: TrackerControl;
}) {
  // The organisation heat map links to a component (#component-c5): that one opens.
  const anchor = `component-${component.key}`;
  const [open, setOpen] = useState(() => window.location.hash === `#${anchor}`);
  const panel = useId();
  const highlighted = component.rank <= HIGHLIGHTED_TOP;
  const printing = usePrinting();
  return (
    <li
      id={anchor}
      data-print-block
      data-testid="prioritized-area"
      data-highlighted={highlighted || undefined}
      className={cn(
        'rounded-xl border bg-white shadow-sm',
        highlighted ? 'border-red-300 ring-1 ring-red-200' : 'border-slate-200',
      )}
    >
      <button
        type="button"
        className="flex w-full flex-col gap-3 p-4 text-start sm:flex-row sm:items-center"
        aria-expanded={open}
        aria-controls={panel}
        onClick={() => setOpen((v) => !v)}
      >
        <span
          className={cn(
            'flex size-8 shrink-0 items-center justify-center rounded-full text-sm font-bold',
            highlighted ? 'bg-red-600 text-white' : 'bg-slate-100 text-slate-700',
          )}
          aria-label={t('results.component.rank', { rank: component.rank })}
        >
          {component.rank}
        </span>
        <span className="min-w-0 flex-1">
          <span className="block font-semibold text-slate-900">{component.title}</span>
          <span className="block text-xs text-slate-600">{component.category}</span>
        </span>
        <span className="flex flex-wrap items-center gap-2 sm:w-80">
          <DistributionBar counts={component} className="w-full" />
        </span>
        <span className="flex shrink-0 flex-wrap items-center gap-2 text-xs">
          <Badge tone="red">{t('results.component.fire', { count: component.fireWarning })}</Badge>
          {component.dots !== null && (
            <Badge tone="purple">{t('results.component.dots', { count: component.dots })}</Badge>
          )}
          <TrendBadge trend={component.trend} />
          <ChevronDown
            className={cn('size-4 text-slate-500 transition-transform print:hidden', open && 'rotate-180')}
            aria-hidden="true"
          />
        </span>
      </button>
      <div id={panel} className={cn('border-t border-slate-100 p-4', !open && 'hidden print:block')}>
        {/* The details are in the page when opened, and when printing (every area's, expanded). */}
        {(open || printing) && (
          <>
            {component.description && <p className="text-sm text-slate-700">{component.description}</p>}
            <dl className="mt-3 grid grid-cols-2 gap-2 text-sm sm:grid-cols-5">
              {(
                [
                  [t('results.component.healthy'), component.healthy],
                  [t('results.component.needsImprovement'), component.needsImprovement],
                  [t('results.component.fireWarning'), component.fireWarning],
                  [t('results.component.dontKnow'), component.dontKnow],
                  [t('results.component.dotsLabel'), component.dots ?? t('results.component.dotsLater')],
                ] as const
              ).map(([label, value]) => (
                <div key={label} className="rounded-lg bg-slate-50 p-2">
                  <dt className="text-xs text-slate-600">{label}</dt>
                  <dd className="font-semibold text-slate-900">{value}</dd>
                </div>
              ))}
            </dl>
            <h3 className="mt-4 text-sm font-semibold text-slate-900">{t('results.component.comments')}</h3>
            {component.comments.length === 0 ? (
              <p className="text-sm text-slate-600">{t('results.component.noComments')}</p>
            ) : (
              <ul className="mt-1 flex flex-col gap-2">
                {component.comments.map((comment, index) => (
                  <li key={index} className="rounded-lg border border-slate-100 p-3 text-sm">
                    <p className="whitespace-pre-wrap text-slate-800">{comment.content}</p>
                    <p className="mt-1 text-xs text-slate-600">— {say(comment.author)}</p>
                  </li>
                ))}
              </ul>
            )}
            <FollowUpEffects followUps={component.followUps} />
            <div className="mt-4 flex items-center justify-between gap-2">
              <h3 className="text-sm font-semibold text-slate-900">{t('results.component.actionItems')}</h3>
              {manages && (
                <Button size="sm" variant="secondary" onClick={onAdd} data-print-hide>
                  {t('results.actionItem.add')}
                </Button>
              )}
            </div>
            {items.length === 0 ? (
              <p className="text-sm text-slate-600">{t('results.component.noActionItems')}</p>
            ) : (
              <ul className="mt-1 flex flex-col gap-2">
                {items.map((item) => (
                  <ActionItemRow
                    key={item.id}
                    item={item}
                    onEdit={manages ? () => onEdit(item) : undefined}
                    tracker={manages ? tracker : undefined}
                  />
                ))}
              </ul>
            )}
          </>
        )}
      </div>
    </li>
  );
}

const STATUS_TONE = { pending: 'neutral', 'in-progress': 'blue', completed: 'green' } as const;

/** The check's tracker and how to open an action item's issue dialog (none: no tracker controls). */
export type TrackerControl = { kind: TrackerKind; label: string; open: (item: ActionItem) => void };

export function ActionItemRow({
  item,
  area,
  onEdit,
  tracker,
}: {
  item: ActionItem;
  area?: string;
  onEdit?: () => void;
  tracker?: TrackerControl;
}) {
  return (
    <li
      className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-3 sm:flex-row sm:items-center"
      data-testid="action-item"
    >
      <div className="min-w-0 flex-1">
        <p className="text-sm break-words text-slate-900">{item.description}</p>
        <p className="mt-1 flex flex-wrap gap-x-3 text-xs text-slate-600">
          <span>
            {item.owner
              ? t('results.actionItem.owner', { name: item.owner.name })
              : t('results.actionItem.ownerNone')}
          </span>
          {item.dueDate && <span>{t('results.actionItem.due', { date: formatDay(item.dueDate) })}</span>}
          {item.completedAt && (
            <span>{t('results.actionItem.done', { date: formatDate(item.completedAt) })}</span>
          )}
          {area && <span>{t('results.actionItem.area', { area })}</span>}
          {item.mentioned.length > 0 && (
            <span>
              {t('results.actionItem.mentioned', { names: item.mentioned.map((p) => p.name).join(', ') })}
            </span>
          )}
        </p>
        {item.tracker && (
          <div className="mt-1">
            <TrackerIssueLine tracker={item.tracker} />
          </div>
        )}
      </div>
      <Badge tone={STATUS_TONE[item.status]}>{statusLabels()[item.status]}</Badge>
      {tracker && (
        <Button
          size="sm"
          variant="ghost"
          onClick={() => tracker.open(item)}
          aria-label={t('results.tracker.issueFor', {
            tracker: tracker.label,
            description: item.description,
          })}
          data-print-hide
        >
          {t('results.tracker.issue', { tracker: tracker.label })}
        </Button>
      )}
      {onEdit && (
        <Button
          size="sm"
          variant="ghost"
          onClick={onEdit}
          aria-label={t('results.actionItem.editNamed', { description: item.description })}
          data-print-hide
        >
          {t('common.edit')}
        </Button>
      )}
    </li>
  );
}
