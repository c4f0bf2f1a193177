import { HIGHLIGHTED_TOP } from '@pulsecheck/shared/results/rules';
import type { TrackerKind } from '@pulsecheck/shared/trackers/rules';
import type { ActionItem, ComponentResult } from '@pulsecheck/shared/results/schemas';
import { TrackerIssueLine } from './tracker-issue-line';
import { ArrowDownRight, ArrowRight, ArrowUpRight, ChevronDown } from 'lucide-react';
import { useId, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { DistributionBar } from '@/components/ui/distribution-bar';
import { cn } from '@/lib/cn';
import { formatDate, formatDay } from '@/lib/dates';
import { usePrinting } from '@/lib/printing';
import { FollowUpEffects } from './follow-up-effects';
import { countOf } from '@pulsecheck/shared/words/plural';

/** An action item's status as the screen names it. */
export const STATUS_LABELS: Record<ActionItem['status'], string> = {
  pending: 'Pending',
  'in-progress': 'In Progress',
  completed: 'Completed',
};

function TrendBadge({ trend }: { trend: ComponentResult['trend'] }) {
  if (!trend) return null;
  const config = {
    better: { icon: ArrowUpRight, text: 'Better', tone: 'green' as const },
    same: { icon: ArrowRight, text: 'Same', tone: 'neutral' as const },
    worse: { icon: ArrowDownRight, text: 'Worse', tone: 'red' as const },
  }[trend];
  const Icon = config.icon;
  return (
    <Badge tone={config.tone} className="gap-1">
      <Icon className="size-3" aria-hidden="true" />
      {config.text} than last time
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
        className="flex w-full flex-col gap-3 p-4 text-left sm:flex-row sm:items-center"
        aria-expanded={open}
        aria-controls={panel}
        onClick={() => setOpen((v) => !v)}
      >
        <span
          className={cn(
            'flex size-8 shrink-0 items-center justify-center rounded-full text-sm font-bold',
            highlighted ? 'bg-red-600 text-white' : 'bg-slate-100 text-slate-700',
          )}
          aria-label={`Rank ${component.rank}`}
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
          <Badge tone="red">{component.fireWarning} fire</Badge>
          {component.dots !== null && <Badge tone="purple">{countOf(component.dots, 'dot')}</Badge>}
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
                  ['Healthy', component.healthy],
                  ['Needs Improvement', component.needsImprovement],
                  ['Fire Warning', component.fireWarning],
                  ["Don't Know", component.dontKnow],
                  ['Dots', component.dots ?? 'When voting ends'],
                ] as const
              ).map(([label, value]) => (
                <div key={label} className="rounded-lg bg-slate-50 p-2">
                  <dt className="text-xs text-slate-600">{label}</dt>
                  <dd className="font-semibold text-slate-900">{value}</dd>
                </div>
              ))}
            </dl>
            <h3 className="mt-4 text-sm font-semibold text-slate-900">Comments</h3>
            {component.comments.length === 0 ? (
              <p className="text-sm text-slate-600">No comments.</p>
            ) : (
              <ul className="mt-1 flex flex-col gap-2">
                {component.comments.map((comment, index) => (
                  <li key={index} className="rounded-lg border border-slate-100 p-3 text-sm">
                    <p className="whitespace-pre-wrap text-slate-800">{comment.content}</p>
                    <p className="mt-1 text-xs text-slate-600">— {comment.author}</p>
                  </li>
                ))}
              </ul>
            )}
            <FollowUpEffects followUps={component.followUps} />
            <div className="mt-4 flex items-center justify-between gap-2">
              <h3 className="text-sm font-semibold text-slate-900">Action items</h3>
              {manages && (
                <Button size="sm" variant="secondary" onClick={onAdd} data-print-hide>
                  Add Action Item
                </Button>
              )}
            </div>
            {items.length === 0 ? (
              <p className="text-sm text-slate-600">None for this area.</p>
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
export type TrackerControl = { label: string; kind: TrackerKind; open: (item: ActionItem) => void };

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
          <span>Owner: {item.owner?.name ?? 'Unassigned'}</span>
          {item.dueDate && <span>Due {formatDay(item.dueDate)}</span>}
          {item.completedAt && <span>Done {formatDate(item.completedAt)}</span>}
          {area && <span>Area: {area}</span>}
          {item.mentioned.length > 0 && (
            <span>Mentioned: {item.mentioned.map((p) => p.name).join(', ')}</span>
          )}
        </p>
        {item.tracker && (
          <div className="mt-1">
            <TrackerIssueLine tracker={item.tracker} />
          </div>
        )}
      </div>
      <Badge tone={STATUS_TONE[item.status]}>{STATUS_LABELS[item.status]}</Badge>
      {tracker && (
        <Button
          size="sm"
          variant="ghost"
          onClick={() => tracker.open(item)}
          aria-label={`${tracker.label} issue for action item: ${item.description}`}
          data-print-hide
        >
          {tracker.label} issue
        </Button>
      )}
      {onEdit && (
        <Button
          size="sm"
          variant="ghost"
          onClick={onEdit}
          aria-label={`Edit action item: ${item.description}`}
          data-print-hide
        >
          Edit
        </Button>
      )}
    </li>
  );
}
