import { LIVE_EVENT, topics } from '@pulsecheck/shared/realtime/topics';
import { z } from '@hono/zod-openapi';
import { okSchema } from '@pulsecheck/shared/auth/schemas';
import { NOTIFICATIONS_LIMIT, notificationsResponseSchema } from '@pulsecheck/shared/notifications/schemas';
import { requireUser } from '../../auth/session';
import { notFound } from '../../lib/app-error';
import { routesOf } from '../../lib/openapi';
import { idParam } from '../../lib/params';
import { createRouter } from '../../lib/router';
import * as q from './queries';

const route = routesOf('notifications');
const NOT_FOUND = 'Notification not found';

/** The bell: the latest notifications and the unread count; reading marks them. Always the caller's own. */
export const notificationRoutes = createRouter()
  .openapi(
    route(
      'get /notifications',
      `The caller's latest ${NOTIFICATIONS_LIMIT} notifications and the unread count`,
      { ok: [200, notificationsResponseSchema, 'Notifications'], errors: [401] },
    ),
    async (c) => {
      const user = await requireUser(c);
      const { db } = c.get('deps');
      const [rows, unread] = [
        await q.latestOf(db, user.id, NOTIFICATIONS_LIMIT),
        await q.unreadCount(db, user.id),
      ];
      c.header('Cache-Control', 'no-store');
      return c.json(
        {
          items: rows.map((r) => ({
            id: r.id,
            type: r.type,
            message: r.message,
            link: r.link,
            healthCheckId: r.healthCheckId,
            read: r.readAt !== null,
            createdAt: r.createdAt.toISOString(),
          })),
          unread,
        },
        200,
      );
    },
  )
  .openapi(
    route('post /notifications/read-all', "Mark all of the caller's notifications read", {
      ok: [200, okSchema, 'Done'],
      errors: [401],
    }),
    async (c) => {
      const user = await requireUser(c);
      const { db, realtime } = c.get('deps');
      await q.markAllRead(db, user.id);
      await realtime.publish({
        topic: topics.user(user.id),
        type: LIVE_EVENT.notification,
        data: { kind: 'read' },
      });
      return c.json({ ok: true as const }, 200);
    },
  )
  .openapi(
    route('post /notifications/{id}/read', 'Mark one notification read', {
      params: z.object({ id: idParam(NOT_FOUND) }),
      ok: [200, okSchema, 'Done'],
      errors: [401, 404],
    }),
    async (c) => {
      const user = await requireUser(c);
      const { db, realtime } = c.get('deps');
      const { id } = c.req.valid('param');
      if (!(await q.markRead(db, user.id, id))) throw notFound(NOT_FOUND);
      await realtime.publish({
        topic: topics.user(user.id),
        type: LIVE_EVENT.notification,
        data: { kind: 'read' },
      });
      return c.json({ ok: true as const }, 200);
    },
  );
