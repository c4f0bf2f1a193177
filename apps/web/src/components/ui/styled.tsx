import { createElement, type ComponentProps, type ElementType, type ReactNode } from 'react';
import { cn } from '@/lib/cn';

/**
 * A component that renders `Component` with `classes`, the caller's `className` merged after them (so a caller
 * can override one). `inner`, when given, is what it always renders inside (a checkbox's tick, a switch's thumb).
 */
export function styled<C extends ElementType>(Component: C, classes: string, inner?: ReactNode) {
  function Styled(props: ComponentProps<C>) {
    const { className, children, ...rest } = props as { className?: string; children?: ReactNode };
    return createElement(Component, { ...rest, className: cn(classes, className) }, inner ?? children);
  }
  Styled.displayName = `styled(${typeof Component === 'string' ? Component : (Component.displayName ?? 'Component')})`;
  return Styled;
}
