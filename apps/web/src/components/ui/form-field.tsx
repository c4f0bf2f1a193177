import { useId, type ReactElement, cloneElement } from 'react';
import { Label } from './label';
import { say } from '@/lib/i18n';

type FieldChildProps = { id?: string; 'aria-invalid'?: boolean; 'aria-describedby'?: string };

/**
 * A labelled control with its error message, wired for screen readers. The error may be a catalogue key (the
 * shared zod rules' messages): it is said in the app's language.
 */
export function FormField({
  label,
  error,
  hint,
  children,
}: {
  label: string;
  error?: string | undefined;
  hint?: string;
  children: ReactElement<FieldChildProps>;
}) {
  const id = useId();
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ');
  return (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      {cloneElement(children, {
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': describedBy || undefined,
      })}
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-slate-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-700">
          {say(error)}
        </p>
      )}
    </div>
  );
}
