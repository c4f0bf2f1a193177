import { topics } from '@pulsecheck/shared/realtime/topics';
import type { NotificationItem, NotificationsResponse } from '@pulsecheck/shared/notifications/schemas';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Bell } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { apiGet, apiPost } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { formatTimeAgo } from '@/lib/dates';
import { formats, t } from '@/lib/i18n';
import { useLiveEvents } from '@/lib/live-events';
import { useSession } from '@/lib/session';
import { useBrowserNotifications } from './browser-notifications';

const notificationsKey = ['notifications'] as const;
const notificationsQuery = queryOptions({
  queryKey: notificationsKey,
  queryFn: ({ signal }) => apiGet<NotificationsResponse>('/notifications', signal),
  staleTime: 30_000,
});

/**
 * The bell: the user's latest notifications, unread count, mark as read; updated live on `user:<id>`. New ones
 * also appear as browser notifications where the browser allows it (./browser-notifications.ts), so every
 * screen with a bell has them. `align`: which edge of the bell the panel lines up with ('end' opens leftwards,
 * 'start' rightwards).
 */
export function NotificationBell({
  className,
  align = 'end',
}: {
  className?: string;
  align?: 'start' | 'end';
}) {
  const session = useSession();
  const userId = session.data?.id;
  const queryClient = useQueryClient();
  const query = useQuery({ ...notificationsQuery, enabled: Boolean(userId) });
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const navigate = useNavigate();

  // Only notifications use the user's topic; the first event of each (re)connection also refetches,
  // so nothing missed while disconnected stays hidden.
  useLiveEvents(userId ? [topics.user(userId)] : [], () => {
    void queryClient.invalidateQueries({ queryKey: notificationsKey });
  });

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        button.current?.focus();
      }
    };
    const onPointer = (event: PointerEvent) => {
      if (root.current && !root.current.contains(event.target as Node)) setOpen(false);
    };
    window.addEventListener('keydown', onKey);
    window.addEventListener('pointerdown', onPointer);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);

  const markRead = useMutation({
    mutationFn: (id: string) => apiPost(`/notifications/${encodeURIComponent(id)}/read`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationsKey }),
  });
  const markAll = useMutation({
    mutationFn: () => apiPost('/notifications/read-all'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationsKey }),
  });

  /** Opening a notification, from the list or from its browser notification: read, and to its link. */
  const openItem = (item: NotificationItem) => {
    if (!item.read) markRead.mutate(item.id);
    setOpen(false);
    if (item.link) void navigate(item.link);
  };
  useBrowserNotifications(userId, query.data?.items, openItem);

  if (!userId) return null;
  const unread = query.data?.unread ?? 0;
  const items = query.data?.items ?? [];
  return (
    <div ref={root} className={cn('relative', className)} data-print-hide>
      <Button
        ref={button}
        variant="ghost"
        size="icon"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((v) => !v)}
        className="relative"
      >
        <Bell aria-hidden="true" />
        <span className="sr-only">{t('notifications.title')}</span>
        {unread > 0 && (
          <span
            className="absolute end-1 top-1 flex min-w-4 items-center justify-center rounded-full bg-red-600 px-1 text-[10px] leading-4 font-bold text-white"
            data-testid="unread-count"
          >
            <span aria-hidden="true">
              {unread > 99 ? t('notifications.overflow', { max: 99 }) : formats().number(unread)}
            </span>
            <span className="sr-only">{t('notifications.unreadCount', { count: unread })}</span>
          </span>
        )}
      </Button>
      {open && (
        <div
          id={panelId}
          role="region"
          aria-label={t('notifications.panel')}
          className={cn(
            'absolute z-50 mt-2 w-[min(22rem,calc(100vw-2rem))] rounded-xl border border-slate-200 bg-white shadow-xl',
            align === 'end' ? 'end-0' : 'start-0',
          )}
        >
          <div className="flex items-center justify-between border-b border-slate-100 px-4 py-3">
            <h2 className="text-sm font-semibold text-slate-900">{t('notifications.title')}</h2>
            <Button
              variant="link"
              size="sm"
              className="h-auto px-0"
              disabled={unread === 0 || markAll.isPending}
              onClick={() => markAll.mutate()}
            >
              {t('notifications.markAllRead')}
            </Button>
          </div>
          {query.isPending ? (
            <p className="p-4 text-sm text-slate-600">{t('notifications.loading')}</p>
          ) : query.isError ? (
            <p className="p-4 text-sm text-red-700" role="alert">
              {t('notifications.loadFailed')}
            </p>
          ) : items.length === 0 ? (
            <p className="p-4 text-sm text-slate-600">{t('notifications.empty')}</p>
          ) : (
            <ul className="max-h-96 divide-y divide-slate-100 overflow-y-auto">
              {items.map((item) => (
                <li key={item.id}>
                  <button
                    type="button"
                    className={cn(
                      'flex w-full gap-3 px-4 py-3 text-start text-sm hover:bg-slate-50',
                      !item.read && 'bg-brand-50/60',
                    )}
                    onClick={() => openItem(item)}
                  >
                    <span
                      className={cn(
                        'mt-1.5 size-2 shrink-0 rounded-full',
                        item.read ? 'bg-transparent' : 'bg-brand-600',
                      )}
                      aria-hidden="true"
                    />
                    <span className="min-w-0">
                      <span className="block break-words text-slate-900">{item.message}</span>
                      <span className="mt-0.5 block text-xs text-slate-600">
                        {item.read
                          ? formatTimeAgo(item.createdAt)
                          : t('notifications.unreadAgo', { ago: formatTimeAgo(item.createdAt) })}
                      </span>
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
