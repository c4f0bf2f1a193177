import * as LabelPrimitive from '@radix-ui/react-label';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/cn';

/** The id a `Label` for the control `controlId` carries, for the controls that also name themselves by it. */
export const labelIdFor = (controlId: string) => `${controlId}-label`;

/**
 * A label. With `htmlFor` it also carries the id `labelIdFor(htmlFor)`, so that a checkbox or switch (a button with a
 * role, which `<label for>` alone names for browsers but not for every assistive technology) can name itself by it.
 */
export function Label({ className, id, htmlFor, ...props }: ComponentProps<typeof LabelPrimitive.Root>) {
  return (
    <LabelPrimitive.Root
      {...props}
      htmlFor={htmlFor}
      id={id ?? (htmlFor ? labelIdFor(htmlFor) : undefined)}
      className={cn('text-sm font-medium text-slate-800', className)}
    />
  );
}

type Naming = { id?: string; 'aria-label'?: string; 'aria-labelledby'?: string };

/**
 * A checkbox or switch is a `<button>` with a role: `<label for>` names it in browsers, but not for every assistive
 * technology (HTML_CodeSniffer reports it unnamed). Unless it is named otherwise, it names itself by its `Label`
 * (`labelIdFor`) as well.
 */
export const namedByLabel = <P extends Naming>(props: P): P =>
  props['aria-label'] || props['aria-labelledby'] || !props.id
    ? props
    : { ...props, 'aria-labelledby': labelIdFor(props.id) };
