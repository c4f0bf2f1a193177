import { cn } from '@/lib/cn';

const TONES = {
  green: 'bg-green-600',
  blue: 'bg-blue-600',
  yellow: 'bg-amber-500',
  red: 'bg-red-600',
  brand: 'bg-brand-600',
} as const;

/** A labelled progress bar; `tone` colours the filled part. */
export function ProgressBar({
  value,
  label,
  tone = 'brand',
  className,
}: {
  value: number;
  label: string;
  tone?: keyof typeof TONES;
  className?: string;
}) {
  const clamped = Math.max(0, Math.min(100, value));
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={clamped}
      data-tone={tone}
      className={cn('h-2 w-full overflow-hidden rounded-full bg-slate-200', className)}
    >
      <div
        className={cn('h-full rounded-full transition-all', TONES[tone])}
        style={{ width: `${clamped}%` }}
      />
    </div>
  );
}
