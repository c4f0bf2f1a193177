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
/**
 * Users per notification of `usersEvent`: a NOTIFY payload holds at most 8,000 bytes, and a user's topic is
 * about 40 (`user:` and a 32-character id).
 */
const USERS_PER_NOTIFY = 100;

/** What travels through NOTIFY: one event, or one event for each of several topics (`usersEvent`). */
type Payload = RealtimeEvent | { topics: string[]; type: string; data?: Record<string, unknown> };

export type Realtime = {
  /** Sends an event through PostgreSQL NOTIFY; inside a transaction it is delivered on commit only. */
  publish(event: RealtimeEvent, tx?: Db): Promise<void>;
  subscribe(topics: string[], subscriber: Subscriber): () => void;
  /** Counts a live stream of this process as open until the returned function is called. */
  trackStream(): () => void;
  /** How many live streams are open on this process. */
  openStreams(): number;
  start(): Promise<void>;
  stop(): Promise<void>;
};

/** Every process LISTENs once and fans events out to its own SSE connections, so it works across processes. */
export function createRealtime(database: Database, logger: Logger): Realtime {
  const byTopic = new Map<string, Set<Subscriber>>();
  let streams = 0;
  let unlisten: (() => Promise<void>) | undefined;

  const deliver = (payload: string) => {
    let parsed: Payload;
    try {
      parsed = JSON.parse(payload) as Payload;
    } catch {
      logger.warn({ payload }, 'realtime: unreadable event');
      return;
    }
    if ('topic' in parsed) {
      for (const subscriber of byTopic.get(parsed.topic) ?? []) subscriber(parsed);
      return;
    }
    const { topics: targets, ...event } = parsed;
    for (const topic of targets)
      for (const subscriber of byTopic.get(topic) ?? []) subscriber({ ...event, topic });
  };

  return {
    async publish(event, tx) {
      await (tx ?? database.db).execute(sql`select pg_notify(${CHANNEL}, ${JSON.stringify(event)})`);
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
    trackStream() {
      streams++;
      let counted = true;
      return () => {
        if (counted) streams--;
        counted = false;
      };
    },
    openStreams: () => streams,
    async start() {
      unlisten ??= await database.listen(CHANNEL, deliver);
    },
    async stop() {
      await unlisten?.();
      unlisten = undefined;
    },
  };
}

/**
 * A SELECT that sends `event` to the topic of each user `users` yields (a column user_id), a NOTIFY per
 * USERS_PER_NOTIFY users, delivered on commit like `publish`. Run it, or end a WITH statement with it so that the
 * event goes out in the statement that wrote what it tells of (notifications/service.ts `bellQueries`).
 */
export const usersEvent = (users: SQL, event: Omit<RealtimeEvent, 'topic'>) =>
  sql`select pg_notify(${CHANNEL}, json_build_object('topics', json_agg(topic), 'type', ${event.type}::text,
                'data', ${JSON.stringify(event.data ?? {})}::json)::text)
      from (select ${topics.user('')}::text || u.user_id as topic,
                   (row_number() over () - 1) / ${USERS_PER_NOTIFY} as part
            from (${users}) u) t
      group by part`;

/** Tells every process that `userId`'s live streams must re-check their session and topics now. */
export const accessChanged = (realtime: Pick<Realtime, 'publish'>, userId: string, tx?: Db) =>
  realtime.publish({ topic: topics.user(userId), type: LIVE_EVENT.accessChanged }, tx);
