import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../test/harness';
import { createAdmin } from '../test/factories';
import type { RealtimeEvent } from './bus';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
});

const nextEvent = (topic: string) =>
  new Promise<RealtimeEvent>((resolve) => {
    const off = ctx.deps.realtime.subscribe([topic], (event) => {
      off();
      resolve(event);
    });
  });

describe('realtime bus', () => {
  it('delivers a published event to subscribers of its topic, through the database', async () => {
    const received = nextEvent('workspace:abc');
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
    const committed = nextEvent('health-check:tx');
    await ctx.deps.db.transaction(async (tx) => {
      await ctx.deps.realtime.publish({ topic: 'health-check:tx', type: 'committed' }, tx);
    });
    await committed;
    off();
    expect(seen).toEqual(['committed']);
  });
});

describe('GET /api/events', () => {
  it('streams events of topics the user may see, and refuses others', async () => {
    const admin = await createAdmin(ctx);
    const other = await createAdmin(ctx);
    const refused = await ctx.request('GET', `/api/events?topic=workspace:${other.workspaceId}`, {
      headers: admin.jar.header(),
    });
    expect(refused.status).toBe(404);
    expect((await ctx.request('GET', `/api/events?topic=user:${admin.userId}`)).status).toBe(401);

    const response = await ctx.request('GET', `/api/events?topic=workspace:${admin.workspaceId}`, {
      headers: admin.jar.header(),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!text.includes('"type":"ready"')) text += (await reader.read()).value ?? '';
    await ctx.deps.realtime.publish({
      topic: `workspace:${admin.workspaceId}`,
      type: 'health-check-changed',
    });
    while (!text.includes('"type":"health-check-changed"')) text += (await reader.read()).value ?? '';
    await reader.cancel();
  });
});
