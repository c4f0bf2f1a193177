import { useEffect, useState, type ComponentType, type ReactNode } from 'react';
import type * as SonnerModule from 'sonner';
import type { ExternalToast, ToasterProps } from 'sonner';
import { t } from '@/lib/i18n';

/*
 * sonner (about 10 KiB gzipped) is not part of the first paint: no screen shows a toast before it has rendered.
 * Its code is fetched on the first toast, or once the browser is idle a little after start-up, and the
 * Toaster mounts then (sonner shows toasts raised before it subscribed).
 */
let sonner: Promise<typeof SonnerModule> | undefined;
const wanted = new Set<() => void>();

function loadSonner() {
  sonner ??= import('sonner').catch((error: unknown) => {
    sonner = undefined; // a later toast tries again
    throw error;
  });
  return sonner;
}

const PREFETCH_AFTER_MS = 2000;

/** Toasts top right, at most 20, default 4 s (spec section 9); success toasts pass their own duration. */
export function Toaster() {
  const [Sonner, setSonner] = useState<ComponentType<ToasterProps> | null>(null);
  useEffect(() => {
    let active = true;
    const show = () => {
      loadSonner().then(
        (module) => {
          if (active) setSonner(() => module.Toaster);
        },
        () => undefined,
      );
    };
    wanted.add(show);
    const idle = (callback: () => void) =>
      'requestIdleCallback' in window ? window.requestIdleCallback(callback) : callback();
    const timer = setTimeout(() => idle(show), PREFETCH_AFTER_MS);
    return () => {
      active = false;
      wanted.delete(show);
      clearTimeout(timer);
    };
  }, []);
  if (!Sonner) return null;
  // Default (white) toasts: the coloured "rich" variant fails WCAG contrast for its text. Expanded: two toasts at
  // once are both read in full, where a stack fades the text of the one behind (a contrast failure, and unreadable).
  // Its region's and close buttons' names in the reader's language (sonner's own are English).
  return (
    <Sonner
      position="top-right"
      visibleToasts={20}
      duration={4000}
      closeButton
      expand
      customAriaLabel={t('ui.toastRegion')}
      toastOptions={{ closeButtonAriaLabel: t('ui.dismiss') }}
    />
  );
}

type Kind = 'success' | 'error' | 'info';
const raise = (kind: Kind) => (message: ReactNode, options?: ExternalToast) => {
  for (const show of wanted) show();
  loadSonner().then(
    (module) => module.toast[kind](message, options),
    () => undefined,
  );
};

/** sonner's `toast.success`, `.error` and `.info`, shown as soon as sonner is loaded. */
export const toast = { success: raise('success'), error: raise('error'), info: raise('info') };

export const TOAST = { copy: 2000, save: 3000, error: 4000 } as const;
