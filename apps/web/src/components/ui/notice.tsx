import { X } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { t } from '@/lib/i18n';

const TONES = {
  success: 'border-green-200 bg-green-50 text-green-900',
  error: 'border-red-200 bg-red-50 text-red-900',
  warning: 'border-amber-200 bg-amber-50 text-amber-900',
  info: 'border-brand-100 bg-brand-50 text-brand-800',
} as const;

/**
 * A boxed message: errors are announced at once (`alert`), the others politely (`status`). With `onDismiss` it
 * has a 'Dismiss' button (a form's banner that the person may close).
 */
export function Notice({
  tone,
  className,
  onDismiss,
  children,
}: {
  tone: keyof typeof TONES;
  className?: string;
  onDismiss?: () => void;
  children: ReactNode;
}) {
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={cn(
        'rounded-lg border px-4 py-3 text-sm',
        onDismiss && 'flex items-start justify-between gap-3',
        TONES[tone],
        className,
      )}
    >
      {onDismiss ? <span>{children}</span> : children}
      {onDismiss && (
        <button
          type="button"
          aria-label={t('ui.dismiss')}
          className="rounded p-0.5 hover:bg-black/5"
          onClick={onDismiss}
        >
          <X className="size-4" aria-hidden="true" />
        </button>
      )}
    </div>
  );
}
