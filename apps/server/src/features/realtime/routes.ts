import { createRoute, z } from '@hono/zod-openapi';
import { streamSSE } from 'hono/streaming';
import { healthCheckAccess, requireWorkspaceAccess } from '../../auth/access';
import { requireUser } from '../../auth/session';
import { notFound } from '../../lib/app-error';
import { errorResponses } from '../../lib/openapi';
import { createRouter } from '../../lib/router';

const topicSchema = z.string().regex(/^(workspace|health-check|user):[\w-]{1,64}$/, 'Unknown topic');
const querySchema = z.object({ topic: z.union([topicSchema, z.array(topicSchema).max(10)]) });

const HEARTBEAT_MS = 25_000;

/**
 * GET /api/events?topic=…: Server-Sent Events for the topics the user may see. Events only say that
 * something changed; screens then refetch through the normal, access-checked API.
 */
export const realtimeRoutes = createRouter().openapi(
  createRoute({
    method: 'get',
    path: '/events',
    tags: ['realtime'],
    summary: 'Live change events (Server-Sent Events)',
    request: { query: querySchema },
    responses: {
      200: { description: 'An event stream', content: { 'text/event-stream': { schema: z.string() } } },
      ...errorResponses(401, 404),
    },
  }),
  async (c) => {
    const user = await requireUser(c);
    const { db, realtime } = c.get('deps');
    const requested = c.req.valid('query').topic;
    const topics = [...new Set(Array.isArray(requested) ? requested : [requested])];
    for (const topic of topics) {
      const [kind, id = ''] = topic.split(':');
      if (kind === 'user' && id !== user.id) throw notFound();
      if (kind === 'workspace') await requireWorkspaceAccess(db, user.id, id, ['admin', 'member']);
      if (kind === 'health-check' && !(await healthCheckAccess(db, user.id, id).catch(() => null)))
        throw notFound();
    }
    return streamSSE(c, async (stream) => {
      const unsubscribe = realtime.subscribe(topics, (event) => {
        void stream.writeSSE({
          data: JSON.stringify({ ...event.data, type: event.type, topic: event.topic }),
        });
      });
      await stream.writeSSE({ data: JSON.stringify({ type: 'ready', topics }) });
      // A comment line keeps proxies from closing an idle stream.
      const heartbeat = setInterval(() => void stream.write(': ping\n\n'), HEARTBEAT_MS);
      await new Promise<void>((resolve) => stream.onAbort(resolve));
      clearInterval(heartbeat);
      unsubscribe();
    });
  },
);
