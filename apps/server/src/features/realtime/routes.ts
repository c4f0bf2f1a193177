import { z } from '@hono/zod-openapi';
import { sql } from 'drizzle-orm';
import { streamSSE } from 'hono/streaming';
import { healthCheckAccess, loopAccess, requireWorkspace } from '../../auth/access';
import { requireUser, signedSessionToken } from '../../auth/session';
import { queryRows, type Db } from '../../db/client';
import { notFound } from '../../lib/app-error';
import { routes } from '../../lib/openapi';
import { LIVE_EVENT, TOPIC_PATTERN, topics } from '@pulsecheck/shared/realtime/topics';

const topicSchema = z.string().regex(TOPIC_PATTERN, 'Unknown topic');
const querySchema = z.object({ topic: z.union([topicSchema, z.array(topicSchema).max(10)]) });

const HEARTBEAT_MS = 25_000;
/** How often an open stream checks that its session is still valid and its topics still allowed. */
export const STREAM_RECHECK_MS = 30_000;

/** Whether the user may watch every one of `topics` (the same rules as every other route). */
async function mayWatch(db: Db, userId: string, watched: string[]): Promise<boolean> {
  for (const topic of watched) {
    const [kind, id = ''] = topic.split(':');
    if (kind === 'user' && id !== userId) return false;
    if (kind === 'workspace') {
      const allowed = await requireWorkspace(db, userId, id).catch(() => null);
      if (!allowed) return false;
    }
    if (kind === 'health-check' && !(await healthCheckAccess(db, userId, id).catch(() => null))) return false;
    if (kind === 'loop' && !(await loopAccess(db, userId, id).catch(() => null))) return false;
  }
  return true;
}

async function sessionValid(db: Db, token: string, userId: string): Promise<boolean> {
  const rows = await queryRows<{ one: number }>(
    db,
    sql`select 1 as one from session where token = ${token} and user_id = ${userId} and expires_at > now()`,
  );
  return rows.length > 0;
}

/**
 * GET /api/events?topic=…: Server-Sent Events for the topics the user may see. Events only say that
 * something changed; screens then refetch through the normal, access-checked API. A stream lives no longer
 * than its right to exist: it checks its session and topics every 30 s, and at once when the user's access
 * changes (logout, password change or reset, removal from a workspace publish `access-changed`), and closes
 * with a last `session-ended` event when either is gone.
 */
export const realtimeRoutes = routes('realtime').handle(
  'get /events',
  'Live change events (Server-Sent Events)',
  { query: querySchema, ok: [200, z.string(), 'An event stream', 'text/event-stream'], errors: [401, 404] },
  async (c) => {
    const user = await requireUser(c);
    const token = signedSessionToken(c) ?? '';
    const { db, realtime, logger } = c.get('deps');
    const requested = c.req.valid('query').topic;
    const watched = [...new Set(Array.isArray(requested) ? requested : [requested])];
    if (!(await mayWatch(db, user.id, watched))) throw notFound();
    return streamSSE(c, async (stream) => {
      let ended = false;
      let end!: () => void;
      const done = new Promise<void>((resolve) => (end = resolve));
      stream.onAbort(end);
      let checking: Promise<void> | undefined;
      const recheck = () => {
        checking ??= (async () => {
          const allowed = (await sessionValid(db, token, user.id)) && (await mayWatch(db, user.id, watched));
          if (!allowed && !ended) {
            ended = true;
            await stream.writeSSE({ data: JSON.stringify({ type: LIVE_EVENT.sessionEnded }) });
            end();
          }
        })()
          .catch((error: unknown) => logger.warn({ err: error }, 'realtime: stream re-check failed'))
          .finally(() => {
            checking = undefined;
          });
      };
      const unsubscribe = realtime.subscribe(watched, (event) => {
        if (ended) return;
        void stream.writeSSE({
          data: JSON.stringify({ ...event.data, type: event.type, topic: event.topic }),
        });
      });
      const unwatch = realtime.subscribe([topics.user(user.id)], (event) => {
        if (event.type === LIVE_EVENT.accessChanged) recheck();
      });
      await stream.writeSSE({ data: JSON.stringify({ type: LIVE_EVENT.ready, topics: watched }) });
      // A comment line keeps proxies from closing an idle stream.
      const heartbeat = setInterval(() => void stream.write(': ping\n\n'), HEARTBEAT_MS);
      const rechecks = setInterval(recheck, STREAM_RECHECK_MS);
      // Until the client goes away or the stream loses its right to exist; streamSSE then closes it.
      await done;
      ended = true;
      clearInterval(heartbeat);
      clearInterval(rechecks);
      unsubscribe();
      unwatch();
    });
  },
).router;
