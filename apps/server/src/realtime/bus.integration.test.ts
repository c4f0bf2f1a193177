import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createAdmin } from '../test/accounts';
import { nextEvent, readEventStream } from '../test/events';
import { useTestContext } from '../test/harness';
import { notify, notifyBell } from '../features/notifications/service';
import { usersEvent } from './bus';

const ctx = useTestContext();

describe('realtime bus', () => {
  it('delivers a published event to subscribers of its topic, through the database', async () => {
    const received = nextEvent(ctx, 'workspace:abc');
    await ctx.deps.realtime.publish({ topic: 'workspace:abc', type: 'changed', data: { n: 1 } });
    expect(await received).toEqual({ topic: 'workspace:abc', type: 'changed', data: { n: 1 } });
  });

  it('delivers an event published inside a transaction only after commit, and never after rollback', async () => {
    const seen: string[] = [];
    const off = ctx.deps.realtime.subscribe(['health-check:tx'], (event) => seen.push(event.type));
    await ctx.deps.db
      .transaction(async (tx) => {
        await ctx.deps.realtime.publish({ topic: 'health-check:tx', type: 'rolled-back' }, tx);
        throw new Error('rollback');
      })
      .catch(() => {});
    const committed = nextEvent(ctx, 'health-check:tx');
    await ctx.deps.db.transaction(async (tx) => {
      await ctx.deps.realtime.publish({ topic: 'health-check:tx', type: 'committed' }, tx);
    });
    await committed;
    off();
    expect(seen).toEqual(['committed']);
  });

  it('sends a per-user event to each of 250 users once, in NOTIFYs of at most 100 users', async () => {
    const users = Array.from({ length: 250 }, (_, i) => `bus-user-${i}-${Date.now()}`);
    const seen = new Map<string, number>();
    const off = ctx.deps.realtime.subscribe(
      users.map((id) => `user:${id}`),
      (event) => {
        expect(event).toEqual({ topic: event.topic, type: 'notification', data: { kind: 'loop-round' } });
        seen.set(event.topic, (seen.get(event.topic) ?? 0) + 1);
      },
    );
    const last = nextEvent(ctx, `user:${users[249]}`);
    await ctx.deps.db.execute(
      usersEvent(sql`select jsonb_array_elements_text(${JSON.stringify(users)}::jsonb) as user_id`, {
        type: 'notification',
        data: { kind: 'loop-round' },
      }),
    );
    await last;
    await new Promise((resolve) => setTimeout(resolve, 50));
    off();
    expect(seen.size).toBe(250);
    expect([...seen.values()].every((count) => count === 1)).toBe(true);
  });
});

describe('bell notices', () => {
  it('reach each person live, whether their settings are read (notify, notifyBell) or not (a new round)', async () => {
    const people = await Promise.all([createAdmin(ctx), createAdmin(ctx)]);
    const seen: string[] = [];
    const off = ctx.deps.realtime.subscribe(
      people.map((p) => `user:${p.userId}`),
      (event) => seen.push(`${event.topic} ${String(event.data?.kind)}`),
    );
    const users = sql`select jsonb_array_elements_text(${JSON.stringify(people.map((p) => p.userId))}::jsonb) as user_id`;
    const last = nextEvent(ctx, `user:${people[1].userId}`);
    await notify(ctx.deps, { userIds: [people[0].userId], type: 'mention', message: 'You were mentioned' });
    const notice = { message: 'Notice', link: '/dashboard', workspaceId: people[0].workspaceId };
    expect(await notifyBell(ctx.deps, { users, type: 'assignment', ...notice })).toHaveLength(2);
    expect(await notifyBell(ctx.deps, { users, type: 'loop-round', ...notice })).toHaveLength(2);
    await last;
    await new Promise((resolve) => setTimeout(resolve, 100));
    off();
    expect(seen.sort()).toEqual(
      [
        `user:${people[0].userId} mention`,
        ...people.flatMap((p) => [`user:${p.userId} assignment`, `user:${p.userId} loop-round`]),
      ].sort(),
    );
  });
});

describe('GET /api/events', () => {
  it('streams events of topics the user may see, and refuses others', async () => {
    const admin = await createAdmin(ctx);
    const other = await createAdmin(ctx);
    const refused = await ctx.call(admin.jar, 'GET', `/api/events?topic=workspace:${other.workspaceId}`);
    expect(refused.status).toBe(404);
    expect((await ctx.request('GET', `/api/events?topic=user:${admin.userId}`)).status).toBe(401);

    const response = await ctx.call(admin.jar, 'GET', `/api/events?topic=workspace:${admin.workspaceId}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const stream = readEventStream(response);
    await stream.waitFor('ready');
    await ctx.deps.realtime.publish({
      topic: `workspace:${admin.workspaceId}`,
      type: 'health-check-changed',
    });
    await stream.waitFor('health-check-changed');
    await stream.cancel();
  });
});
