import type { NotificationItem } from '@pulsecheck/shared/notifications/schemas';
import { useEffect, useRef } from 'react';
import { showBrowserNotification, useWebLockHolder } from '@/lib/browser-notifications';

export const BROWSER_NOTIFICATION_TITLE = 'Pulsecheck';

/**
 * The notifications of `items` (newest first, as the API lists them) that `seen` does not hold yet and that
 * are still unread, oldest first; every item of `items` is added to `seen`.
 */
export function takeArrivals(seen: Set<string>, items: readonly NotificationItem[]): NotificationItem[] {
  const arrivals = items.filter((item) => !seen.has(item.id) && !item.read);
  for (const item of items) seen.add(item.id);
  return arrivals.reverse();
}

/**
 * A browser notification for each notification that arrives while the page is open, for the bell's list
 * `items`. What reaches the list is already what the user's push settings allow: the server creates a bell
 * notification only when the recipient's push setting for its type is on (`channelsFor` in the server's
 * features/notifications/service.ts), so the push setting decides the bell and the browser notification in one
 * place. The notifications that are there when the page opens were not new and are never shown.
 *
 * Once per notification, however many tabs (and bells in one tab) are open: every bell follows the list, but
 * only the holder of the Web Lock `pulsecheck:browser-notifications:<user>` shows anything. The lock is held
 * for as long as its holder is mounted, and the browser hands it to a waiting bell when its tab closes, so
 * there is always exactly one shower while any tab is open, without timers or messages between tabs that could
 * race. Each notification also carries its id as `tag`, so a browser without Web Locks (where every tab shows)
 * still displays it once. Clicking one opens the notification as the bell does (`open`).
 */
export function useBrowserNotifications(
  userId: string | undefined,
  items: readonly NotificationItem[] | undefined,
  open: (item: NotificationItem) => void,
) {
  const shower = useWebLockHolder(userId ? `pulsecheck:browser-notifications:${userId}` : null);
  const seen = useRef<{ userId: string; ids: Set<string> } | null>(null);
  const shown = useRef(new Map<string, Notification>());
  const onOpen = useRef(open);
  useEffect(() => {
    onOpen.current = open;
  });

  useEffect(() => {
    if (!userId || !items) return;
    if (seen.current?.userId !== userId) {
      // The first list of this user: what is in it was there before the page opened.
      seen.current = { userId, ids: new Set(items.map((item) => item.id)) };
      return;
    }
    // Read elsewhere (the bell, another tab): its browser notification goes away.
    for (const item of items) {
      if (item.read) {
        shown.current.get(item.id)?.close();
        shown.current.delete(item.id);
      }
    }
    const arrivals = takeArrivals(seen.current.ids, items);
    if (!shower.current) return;
    for (const item of arrivals) {
      const notification = showBrowserNotification({
        title: BROWSER_NOTIFICATION_TITLE,
        body: item.message,
        tag: `pulsecheck-notification-${item.id}`,
        onClick: () => {
          shown.current.delete(item.id);
          onOpen.current(item);
        },
      });
      if (!notification) continue;
      shown.current.set(item.id, notification);
      notification.addEventListener('close', () => shown.current.delete(item.id));
    }
  }, [userId, items, shower]);
}
