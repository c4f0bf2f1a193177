import { useId } from 'react';
import { Checkbox } from './checkbox';

/**
 * A checkbox with its label beside it (the label names it), and an optional hint below the label. `technical`
 * marks the one that is an identifier (an API scope, an event name), the same in every language.
 */
export function CheckboxField({
  label,
  hint,
  technical,
  checked,
  onCheckedChange,
  onBlur,
}: {
  label: string;
  hint?: string;
  technical?: 'label' | 'hint';
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  onBlur?: () => void;
}) {
  const id = useId();
  return (
    <div className="flex items-start gap-3">
      <Checkbox
        id={id}
        className="mt-0.5"
        checked={checked}
        onCheckedChange={(value) => onCheckedChange(value === true)}
        onBlur={onBlur}
        aria-describedby={hint ? `${id}-hint` : undefined}
      />
      <div className="space-y-0.5">
        <label
          htmlFor={id}
          className="text-sm text-slate-900"
          translate={technical === 'label' ? 'no' : undefined}
        >
          {label}
        </label>
        {hint && (
          <p
            id={`${id}-hint`}
            className="text-xs text-slate-600"
            translate={technical === 'hint' ? 'no' : undefined}
          >
            {hint}
          </p>
        )}
      </div>
    </div>
  );
}
