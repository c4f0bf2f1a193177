import { useDeferredValue, type ReactNode } from 'react';

/**
 * Shows `fallback` at once and `children` in a deferred render. A screen's data arrives through a store (TanStack
 * Query), whose updates React renders in one go, as one long task; deferred, a large part of a screen (a list of
 * twenty checks, twenty-nine results) is rendered in slices that leave the main thread free for input in between,
 * after what is above it has painted (decision 0006).
 */
export function Deferred({ children, fallback = null }: { children: ReactNode; fallback?: ReactNode }) {
  const ready = useDeferredValue(true, false);
  return ready ? children : fallback;
}
