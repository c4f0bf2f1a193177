import { RATING_OPTIONS, type ParticipationRating } from '@pulsecheck/shared/participation/rules';
import { CheckCircle2, Flame, HelpCircle, AlertTriangle } from 'lucide-react';
import { useRef, type KeyboardEvent } from 'react';
import { cn } from '@/lib/cn';
import { say } from '@/lib/i18n';

const LOOK: Record<ParticipationRating, { icon: typeof Flame; idle: string; checked: string }> = {
  healthy: {
    icon: CheckCircle2,
    idle: 'hover:border-green-400 hover:bg-green-50',
    checked: 'border-green-600 bg-green-50 ring-2 ring-green-600 text-green-900',
  },
  'needs-improvement': {
    icon: AlertTriangle,
    idle: 'hover:border-amber-400 hover:bg-amber-50',
    checked: 'border-amber-600 bg-amber-50 ring-2 ring-amber-600 text-amber-900',
  },
  'fire-warning': {
    icon: Flame,
    idle: 'hover:border-red-400 hover:bg-red-50',
    checked: 'border-red-600 bg-red-50 ring-2 ring-red-600 text-red-900',
  },
  'dont-know': {
    icon: HelpCircle,
    idle: 'hover:border-slate-400 hover:bg-slate-50',
    checked: 'border-slate-600 bg-slate-100 ring-2 ring-slate-600 text-slate-900',
  },
};

/**
 * The four rating buttons as one radio group: Tab reaches the group, arrow keys move and choose within it
 * (the ARIA radio group pattern), and the page maps keys 1 to 4 onto the same choices.
 */
export function RatingOptions({
  value,
  onChange,
  labelledBy,
}: {
  value: ParticipationRating | undefined;
  onChange: (rating: ParticipationRating) => void;
  labelledBy: string;
}) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const current = RATING_OPTIONS.findIndex((option) => option.value === value);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    if (!step) return;
    event.preventDefault();
    event.stopPropagation();
    const from = current === -1 ? (step > 0 ? -1 : 0) : current;
    const next = (from + step + RATING_OPTIONS.length) % RATING_OPTIONS.length;
    const option = RATING_OPTIONS[next];
    if (!option) return;
    onChange(option.value);
    refs.current[next]?.focus();
  };

  return (
    <div
      role="radiogroup"
      aria-labelledby={labelledBy}
      aria-required="true"
      onKeyDown={onKeyDown}
      className="grid grid-cols-1 gap-3 sm:grid-cols-2"
    >
      {RATING_OPTIONS.map((option, index) => {
        const checked = option.value === value;
        const look = LOOK[option.value];
        const Icon = look.icon;
        return (
          <button
            key={option.value}
            ref={(element) => {
              refs.current[index] = element;
            }}
            type="button"
            role="radio"
            aria-checked={checked}
            tabIndex={checked || (current === -1 && index === 0) ? 0 : -1}
            onClick={() => onChange(option.value)}
            className={cn(
              'flex min-h-16 items-center gap-3 rounded-xl border border-slate-300 bg-white px-4 py-3 text-start transition-colors',
              checked ? look.checked : look.idle,
            )}
          >
            <Icon className="size-6 shrink-0" aria-hidden="true" />
            <span className="flex flex-col">
              <span className="font-semibold">{say(option.label)}</span>
              <span className="text-xs text-slate-600">{say(option.hint)}</span>
            </span>
            <kbd className="ms-auto hidden rounded border border-slate-300 px-1.5 text-xs text-slate-600 sm:inline">
              {index + 1}
            </kbd>
          </button>
        );
      })}
    </div>
  );
}
