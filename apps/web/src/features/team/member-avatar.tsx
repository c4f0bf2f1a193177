import { cn } from '@/lib/cn';

/** A member's photo, or their initials; decorative, since the name is always shown beside it. */
export function MemberAvatar({
  name,
  url,
  className,
}: {
  name: string | null;
  url: string | null;
  className?: string;
}) {
  const initials =
    (name ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((part) => part[0]?.toUpperCase())
      .join('') || '?';
  return url ? (
    <img src={url} alt="" className={cn('size-9 shrink-0 rounded-full object-cover', className)} />
  ) : (
    <span
      aria-hidden="true"
      className={cn(
        'flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-100 text-xs font-semibold text-brand-800',
        className,
      )}
    >
      {initials}
    </span>
  );
}
