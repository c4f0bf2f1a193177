import type { Db } from '../../db/client';
import { notifications } from '../../db/schema/messaging';
import type { Realtime } from '../../realtime/bus';

export type NotificationType =
  | 'new-response'
  | 'phase-change'
  | 'all-completed'
  | 'completion-milestone'
  | 'assignment'
  | 'mention'
  | 'team-update'
  | 'survey-reminder';

export type NotifyInput = {
  userIds: string[];
  type: NotificationType;
  message: string;
  link?: string;
  healthCheckId?: string;
};

/**
 * Stores an in-app notification for each user and pushes it live to their open screens.
 * Pass `tx` to make it part of a larger transaction.
 */
export async function notify(
  deps: { db: Db; realtime: Realtime },
  input: NotifyInput,
  tx?: Db,
): Promise<void> {
  const userIds = [...new Set(input.userIds)];
  if (userIds.length === 0) return;
  const db = tx ?? deps.db;
  await db.insert(notifications).values(
    userIds.map((userId) => ({
      userId,
      type: input.type,
      message: input.message,
      link: input.link ?? null,
      healthCheckId: input.healthCheckId ?? null,
    })),
  );
  for (const userId of userIds) {
    await deps.realtime.publish(
      { topic: `user:${userId}`, type: 'notification', data: { kind: input.type } },
      db,
    );
  }
}
