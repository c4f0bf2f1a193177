import { Loader2 } from 'lucide-react';
import { cn } from '@/lib/cn';
import { t } from '@/lib/i18n';

export function Spinner({ label = t('ui.loading'), className }: { label?: string; className?: string }) {
  return (
    <div role="status" className={cn('flex items-center justify-center gap-2 text-slate-600', className)}>
      <Loader2 className="size-5 animate-spin" aria-hidden="true" />
      <span className="text-sm">{label}</span>
    </div>
  );
}

export function FullPageSpinner({ label }: { label?: string }) {
  return (
    <div className="flex min-h-screen items-center justify-center">
      <Spinner label={label} />
    </div>
  );
}
