import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { cn } from '@/lib/cn';

/** A text link led by an icon, such as 'Back to Dashboard'. */
export function IconLink({
  to,
  icon: Icon,
  className,
  children,
}: {
  to: string;
  icon: LucideIcon;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Link
      to={to}
      className={cn('inline-flex items-center gap-1 text-sm text-brand-700 hover:underline', className)}
    >
      <Icon className="size-4" aria-hidden="true" />
      {children}
    </Link>
  );
}
