import type { ComponentProps } from 'react';
import { cn } from '@/lib/cn';
import { styled } from './styled';

/**
 * A text input. Its `type` is always written (`text` unless given): an `autocomplete` token is checked against the
 * type, and some assistive technology reads an input without one wrongly (HTML_CodeSniffer reports it).
 */
export function Input({ className, type = 'text', ...props }: ComponentProps<'input'>) {
  return (
    <input
      {...props}
      type={type}
      className={cn(
        'h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 placeholder:text-slate-500 focus-visible:border-brand-600 disabled:cursor-not-allowed disabled:bg-slate-100 aria-[invalid=true]:border-red-600',
        className,
      )}
    />
  );
}

export const Textarea = styled(
  'textarea',
  'min-h-24 w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 placeholder:text-slate-500 focus-visible:border-brand-600 aria-[invalid=true]:border-red-600',
);

// The select is in ./select.tsx: one styled native select for every screen.
