import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { Button } from './button';
import { t } from '@/lib/i18n';

/** A centred card for empty, closed and error states; an error is announced. */
export function StateCard({
  title,
  message,
  icon,
  actions,
  tone = 'neutral',
  headingLevel = 2,
}: {
  title?: string;
  message: ReactNode;
  icon?: ReactNode;
  actions?: ReactNode;
  tone?: 'neutral' | 'error';
  /** 1 where the card is all the screen shows. */
  headingLevel?: 1 | 2;
}) {
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  return (
    <section
      role={tone === 'error' ? 'alert' : undefined}
      className={cn(
        'mx-auto w-full max-w-lg rounded-2xl border bg-white p-8 text-center shadow-sm',
        tone === 'error' ? 'border-red-200' : 'border-slate-200',
      )}
    >
      {icon}
      {title && <Heading className="text-xl font-semibold text-slate-900">{title}</Heading>}
      <div className={cn('text-sm text-slate-700', title && 'mt-2')}>{message}</div>
      {actions && <div className="mt-6 flex flex-wrap justify-center gap-3">{actions}</div>}
    </section>
  );
}

/** What a screen shows when its data did not load: what failed, why, and 'Try Again'. */
export function LoadFailed({
  title,
  message,
  onRetry,
  headingLevel,
}: {
  title: string;
  message?: string;
  onRetry: () => void;
  headingLevel?: 1 | 2;
}) {
  return (
    <StateCard
      tone="error"
      title={title}
      message={message}
      actions={<Button onClick={onRetry}>{t('common.tryAgain')}</Button>}
      {...(headingLevel && { headingLevel })}
    />
  );
}
