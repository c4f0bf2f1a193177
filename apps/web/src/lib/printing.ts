import { useSyncExternalStore } from 'react';
import { flushSync } from 'react-dom';

/*
 * Whether the page is being printed, for screens that leave out of the page what only a printout shows (the
 * results' collapsed details: hundreds of elements a screen reader or a phone never needs until opened). The
 * browser's `beforeprint` comes before it lays out the printout, and the update is flushed at once so the
 * printout has it; the print media query covers print previews and emulated print media.
 */
let printing = false;
let stop: (() => void) | undefined;
const listeners = new Set<() => void>();
const set = (next: boolean) => {
  if (next === printing) return;
  printing = next;
  for (const listener of listeners) listener();
};

function subscribe(listener: () => void) {
  if (listeners.size === 0) {
    const media = window.matchMedia?.('print');
    const onMedia = (event: MediaQueryListEvent) => set(event.matches);
    const before = () => flushSync(() => set(true));
    const after = () => set(media?.matches ?? false);
    media?.addEventListener('change', onMedia);
    window.addEventListener('beforeprint', before);
    window.addEventListener('afterprint', after);
    stop = () => {
      media?.removeEventListener('change', onMedia);
      window.removeEventListener('beforeprint', before);
      window.removeEventListener('afterprint', after);
    };
    set(media?.matches ?? false);
  }
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) stop?.();
  };
}

export function usePrinting() {
  return useSyncExternalStore(
    subscribe,
    () => printing,
    () => false,
  );
}
