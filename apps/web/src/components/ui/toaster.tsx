import { Toaster as Sonner, toast } from 'sonner';

/** Toasts top right, at most 20, default 4 s (spec section 9); success toasts pass their own duration. */
export function Toaster() {
  // Default (white) toasts: the coloured "rich" variant fails WCAG contrast for its text.
  return <Sonner position="top-right" visibleToasts={20} duration={4000} closeButton />;
}

export const TOAST = { copy: 2000, save: 3000, error: 4000 } as const;
export { toast };
