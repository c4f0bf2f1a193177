import { LOOP_LINKS } from '@pulsecheck/shared/loops/links';
import type { LoopStatus } from '@pulsecheck/shared/loops/rules';
import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, NavLink } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { IconLink } from '@/components/ui/icon-link';
import { LoadFailed, StateCard } from '@/components/ui/state-card';
import { ApiError } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { t } from '@/lib/i18n';

export const LOOP_STATUS_BADGE = {
  active: { label: () => t('loops.statusActive'), tone: 'blue' },
  paused: { label: () => t('loops.statusPaused'), tone: 'yellow' },
  completed: { label: () => t('loops.statusCompleted'), tone: 'green' },
} as const satisfies Record<LoopStatus, { label: () => string; tone: string }>;

/** The top of every loop screen: back to the dashboard, title, status, and the three screens of the loop. */
export function LoopHeader({
  loop,
  detail,
}: {
  loop: { id: string; title: string; status: LoopStatus };
  detail?: ReactNode;
}) {
  const badge = LOOP_STATUS_BADGE[loop.status];
  const tabs = [
    { to: LOOP_LINKS.completionStatus(loop.id), label: t('loops.tabCompletionStatus') },
    { to: LOOP_LINKS.results(loop.id), label: t('loops.tabResults') },
    { to: LOOP_LINKS.insights(loop.id), label: t('loops.tabInsights') },
  ];
  return (
    <div className="flex flex-col gap-3">
      <IconLink to="/admin/dashboard?filter=loops" icon={ArrowLeft}>
        {t('loops.backToDashboard')}
      </IconLink>
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold break-words text-slate-900">{loop.title}</h1>
        <Badge tone={badge.tone}>{badge.label()}</Badge>
      </div>
      {detail && <div className="text-sm text-slate-600">{detail}</div>}
      <nav aria-label={t('loops.screensNav')}>
        <ul className="flex flex-wrap gap-1 rounded-lg bg-slate-100 p-1 text-sm font-medium">
          {tabs.map((tab) => (
            <li key={tab.to}>
              <NavLink
                to={tab.to}
                className={({ isActive }) =>
                  cn(
                    'block rounded-md px-3 py-1.5',
                    isActive ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-700 hover:text-slate-900',
                  )
                }
              >
                {tab.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}

/**
 * What a loop screen shows when its data did not load: an unknown loop or round, or one of another workspace
 * (404, in the server's words), or any other failure with 'Try Again'.
 */
export function LoopLoadFailed({
  error,
  title,
  onRetry,
}: {
  error: Error;
  title: string;
  onRetry: () => void;
}) {
  if (error instanceof ApiError && error.status === 404) {
    return (
      <StateCard
        headingLevel={1}
        title={error.message}
        message={t('loops.notFoundHint')}
        actions={
          <Button asChild>
            <Link to="/admin/dashboard?filter=loops">{t('loops.backToDashboard')}</Link>
          </Button>
        }
      />
    );
  }
  return <LoadFailed headingLevel={1} title={title} message={error.message} onRetry={onRetry} />;
}
