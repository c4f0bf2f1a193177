import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';

/** The browser's notification permission, or 'unsupported' where there is no Notification API. */
export type BrowserNotificationPermission = NotificationPermission | 'unsupported';

export function browserNotificationPermission(): BrowserNotificationPermission {
  return typeof window !== 'undefined' && 'Notification' in window ? Notification.permission : 'unsupported';
}

/**
 * The notification permission, kept current: the user may change it in the browser's site settings while the
 * page is open (Permissions API `change`), or through `request` (the browser's prompt).
 */
export function useBrowserNotificationPermission() {
  const [permission, setPermission] = useState(browserNotificationPermission);
  const supported = permission !== 'unsupported';
  useEffect(() => {
    if (!supported || !('permissions' in navigator)) return;
    let status: PermissionStatus | undefined;
    let disposed = false;
    const update = () => setPermission(browserNotificationPermission());
    navigator.permissions
      .query({ name: 'notifications' })
      .then((result) => {
        if (disposed) return;
        status = result;
        result.addEventListener('change', update);
        update();
      })
      // Some browsers do not let the Permissions API query notifications; the prompt still updates the state.
      .catch(() => undefined);
    return () => {
      disposed = true;
      status?.removeEventListener('change', update);
    };
  }, [supported]);
  const request = useCallback(async () => {
    if (!('Notification' in window)) return;
    setPermission(await Notification.requestPermission());
  }, []);
  return { permission, request };
}

/**
 * Whether this instance holds the Web Lock `name` (null: none). Of every instance asking for the same name, in
 * all tabs of this origin, exactly one holds it at a time; the others wait in the browser's queue, and when the
 * holder's tab closes, navigates away or unmounts it, the lock passes to the next one. The browser releases a
 * lock of a closed or crashed tab by itself, so no tab can keep it by dying. Read the ref when an event comes;
 * nothing re-renders when it changes. Without Web Locks (old browsers, pages not served over HTTPS or from
 * localhost) every instance counts as holder.
 */
export function useWebLockHolder(name: string | null): RefObject<boolean> {
  const holds = useRef(false);
  useEffect(() => {
    holds.current = false;
    if (!name) return;
    if (!('locks' in navigator)) {
      holds.current = true;
      return () => {
        holds.current = false;
      };
    }
    let disposed = false;
    let release: (() => void) | undefined;
    const waiting = new AbortController();
    navigator.locks
      .request(name, { signal: waiting.signal }, () => {
        // Granted just as the instance went away: give it straight back.
        if (disposed) return undefined;
        holds.current = true;
        // The lock stays held until this promise settles.
        return new Promise<void>((resolve) => (release = resolve));
      })
      // AbortError: the instance went away while waiting.
      .catch(() => undefined);
    return () => {
      disposed = true;
      holds.current = false;
      waiting.abort();
      release?.();
    };
  }, [name]);
  return holds;
}

/**
 * Shows a browser notification when the permission is granted; null when none was shown. Notifications with
 * the same `tag` replace each other, so a notification shown twice (two tabs without Web Locks) appears once.
 * Clicking one focuses the tab that showed it, closes it and calls `onClick`.
 */
export function showBrowserNotification(options: {
  title: string;
  body: string;
  tag: string;
  onClick: () => void;
}): Notification | null {
  if (browserNotificationPermission() !== 'granted') return null;
  try {
    const notification = new Notification(options.title, { body: options.body, tag: options.tag });
    notification.onclick = (event) => {
      event.preventDefault();
      window.focus();
      notification.close();
      options.onClick();
    };
    return notification;
  } catch {
    // Chrome on Android shows notifications only through a service worker; the bell still has it.
    return null;
  }
}
