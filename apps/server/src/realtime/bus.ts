import { LIVE_EVENT, topics } from '@pulsecheck/shared/realtime/topics';
import { sql, type SQL } from 'drizzle-orm';
import type { Database, Db } from '../db/client';
import type { Logger } from '../logger';

/**
 * An event on a topic (`topics` and `LIVE_EVENT` in packages/shared/src/realtime/topics.ts). Events carry no
 * private data: clients refetch what they may see.
 */
export type RealtimeEvent = { topic: string; type: string; data?: Record<string, unknown> };
type Subscriber = (event: RealtimeEvent) => void;

const CHANNEL = 'pulsecheck_events';

export type Realtime = {
  /** Sends an event through PostgreSQL NOTIFY; inside a transaction it is delivered on commit only. */
  publish(event: RealtimeEvent, tx?: Db): Promise<void>;
  /** One event on the topic of each user a SELECT yields (column user_id), in one statement however many. */
  publishToUsers(users: SQL, event: Omit<RealtimeEvent, 'topic'>, tx?: Db): Promise<void>;
  subscribe(topics: string[], subscriber: Subscriber): () => void;
  start(): Promise<void>;
  stop(): Promise<void>;
};

/** Every process LISTENs once and fans events out to its own SSE connections, so it works across processes. */
export function createRealtime(database: Database, logger: Logger): Realtime {
  const byTopic = new Map<string, Set<Subscriber>>();
  let unlisten: (() => Promise<void>) | undefined;

  const deliver = (payload: string) => {
    let event: RealtimeEvent;
    try {
      event = JSON.parse(payload) as RealtimeEvent;
    } catch {
      logger.warn({ payload }, 'realtime: unreadable event');
      return;
    }
    for (const subscriber of byTopic.get(event.topic) ?? []) subscriber(event);
  };

  return {
    async publish(event, tx) {
      await (tx ?? database.db).execute(sql`select pg_notify(${CHANNEL}, ${JSON.stringify(event)})`);
    },
    async publishToUsers(users, event, tx) {
      await (tx ?? database.db).execute(
        sql`select pg_notify(${CHANNEL}, json_build_object('topic', ${topics.user('')}::text || u.user_id, 'type',
                     ${event.type}::text, 'data', ${JSON.stringify(event.data ?? {})}::json)::text)
            from (${users}) u`,
      );
    },
    subscribe(topics, subscriber) {
      for (const topic of topics) {
        let set = byTopic.get(topic);
        if (!set) byTopic.set(topic, (set = new Set()));
        set.add(subscriber);
      }
      return () => {
        for (const topic of topics) {
          const set = byTopic.get(topic);
          set?.delete(subscriber);
          if (set?.size === 0) byTopic.delete(topic);
        }
      };
    },
    async start() {
      unlisten ??= await database.listen(CHANNEL, deliver);
    },
    async stop() {
      await unlisten?.();
      unlisten = undefined;
    },
  };
}

/** Tells every process that `userId`'s live streams must re-check their session and topics now. */
export const accessChanged = (realtime: Pick<Realtime, 'publish'>, userId: string, tx?: Db) =>
  realtime.publish({ topic: topics.user(userId), type: LIVE_EVENT.accessChanged }, tx);
