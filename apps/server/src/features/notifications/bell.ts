import { NOT_FOUND_MESSAGES } from '@pulsecheck/shared/api/errors';
import type { NotificationsResponse } from '@pulsecheck/shared/notifications/schemas';
import { NOTIFICATIONS_LIMIT } from '@pulsecheck/shared/notifications/schemas';
import { LIVE_EVENT, topics } from '@pulsecheck/shared/realtime/topics';
import { notFound } from '../../lib/app-error';
import type { AppDeps } from '../../lib/router';
import * as q from './queries';

/** The bell: the caller's latest notifications and the unread count. Always the caller's own. */
export async function bellOf(
  { db }: Pick<AppDeps, 'db'>,
  { userId }: { userId: string },
): Promise<NotificationsResponse> {
  const rows = await q.latestOf(db, userId, NOTIFICATIONS_LIMIT);
  const unread = await q.unreadCount(db, userId);
  const items = rows.map(({ readAt, createdAt, ...row }) => ({
    ...row,
    read: readAt !== null,
    createdAt: createdAt.toISOString(),
  }));
  return { items, unread };
}

/** Other tabs of the same person update their bell. */
const announceRead = ({ realtime }: Pick<AppDeps, 'realtime'>, userId: string) =>
  realtime.publish({ topic: topics.user(userId), type: LIVE_EVENT.notification, data: { kind: 'read' } });

export async function markAllRead(deps: Pick<AppDeps, 'db' | 'realtime'>, { userId }: { userId: string }) {
  await q.markAllRead(deps.db, userId);
  await announceRead(deps, userId);
}

/** Marks one of the caller's notifications read; another person's is not found. */
export async function markRead(
  deps: Pick<AppDeps, 'db' | 'realtime'>,
  { userId, notificationId }: { userId: string; notificationId: string },
) {
  if (!(await q.markRead(deps.db, userId, notificationId))) throw notFound(NOT_FOUND_MESSAGES.notification);
  await announceRead(deps, userId);
}
