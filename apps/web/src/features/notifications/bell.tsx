import { lazy, Suspense } from 'react';
import { cn } from '@/lib/cn';

const LazyBell = lazy(() => import('./notification-bell').then((m) => ({ default: m.NotificationBell })));

/**
 * The notification bell (./notification-bell.tsx), loaded beside the screen rather than before it: its code
 * (the panel, live updates, browser notifications) is not needed to paint a page, so it is not part of any
 * route's first load (decision 0006). Until it is there, an empty box of its size keeps the header still.
 */
export function NotificationBell(props: { className?: string; align?: 'start' | 'end' }) {
  return (
    <Suspense fallback={<div className={cn('size-10', props.className)} aria-hidden="true" />}>
      <LazyBell {...props} />
    </Suspense>
  );
}
