import { okSchema } from '@pulsecheck/shared/auth/schemas';
import { NOTIFICATIONS_LIMIT, notificationsResponseSchema } from '@pulsecheck/shared/notifications/schemas';
import { routes } from '../../lib/openapi';
import * as bell from './bell';

export const notificationRoutes = routes('notifications')
  .call(
    'get /notifications',
    `The caller's latest ${NOTIFICATIONS_LIMIT} notifications and the unread count`,
    { ok: [200, notificationsResponseSchema, 'Notifications'] },
    bell.bellOf,
  )
  .call(
    'post /notifications/read-all',
    "Mark all of the caller's notifications read",
    { ok: [200, okSchema, 'Done'] },
    bell.markAllRead,
  )
  .call(
    'post /notifications/{notificationId}/read',
    'Mark one notification read',
    { ok: [200, okSchema, 'Done'] },
    bell.markRead,
  ).router;
