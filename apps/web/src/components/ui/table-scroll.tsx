import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

/**
 * A wide table's frame: it scrolls sideways on a narrow screen instead of the page, and can be focused and
 * scrolled by keyboard (a named region). `relative` keeps the table's visually hidden parts inside it.
 */
export function TableScroll({
  label,
  className,
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div role="region" aria-label={label} tabIndex={0} className={cn('relative overflow-x-auto', className)}>
      {children}
    </div>
  );
}
