import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { session } from '../db/schema/auth';
import { STREAM_RECHECK_MS } from '../features/realtime/routes';
import {
  createAdmin,
  CookieJar,
  followLink,
  latestMail,
  linkIn,
  type CookieJar as Jar,
} from '../test/factories';
import { createTestContext, type TestContext } from '../test/harness';
import { addMember } from '../test/team-factories';

/**
 * Issue "Trust", item 7: a live stream (Server-Sent Events) ends with the right that opened it: at logout, at a
 * password change or reset, at removal from the workspace, and within a minute of its session ending any
 * other way. Before the fix a stream kept receiving the workspace's events after all of these.
 */

let ctx: TestContext;
let admin: Awaited<ReturnType<typeof createAdmin>>;

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await createAdmin(ctx);
});
afterAll(async () => {
  await ctx.close();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Opens a stream of the workspace's events and waits for its 'ready' event. */
async function openStream(jar: Pick<Jar, 'header'>, workspaceId = admin.workspaceId) {
  const response = await ctx.request('GET', `/api/events?topic=workspace:${workspaceId}`, {
    headers: jar.header(),
  });
  expect(response.status).toBe(200);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  while (!text.includes('"type":"ready"')) text += (await reader.read()).value ?? '';
  return {
    /** Resolves with everything the stream sent until it ended, or rejects when it is still open after `ms`. */
    async ended(ms = 3000) {
      let timedOut = false;
      const deadline = setTimeout(() => {
        timedOut = true;
        void reader.cancel();
      }, ms);
      for (;;) {
        const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
        if (value) text += value;
        if (done) break;
      }
      clearTimeout(deadline);
      return { text, closedByServer: !timedOut };
    },
    cancel: () => reader.cancel(),
  };
}

/** A second signed-in session of a user who signs in with `email` and `password`. */
async function signIn(email: string, password: string) {
  const jar = new CookieJar();
  const response = jar.store(await ctx.request('POST', '/api/login', { body: { email, password } }));
  expect(response.status).toBe(200);
  return jar;
}

/** Publishes a workspace event and says whether the stream still delivered it. */
async function stillDelivers(stream: Awaited<ReturnType<typeof openStream>>) {
  await ctx.deps.realtime.publish({ topic: `workspace:${admin.workspaceId}`, type: 'health-check-changed' });
  const { text } = await stream.ended(1500);
  return text.includes('health-check-changed');
}

describe('7. live streams do not outlive the session that opened them', () => {
  it('ends the stream when the user logs out (every session ends)', async () => {
    const member = await addMember(ctx, admin);
    const elsewhere = await signIn(member.email, member.password);
    const stream = await openStream(elsewhere);
    expect((await ctx.request('POST', '/api/logout', { headers: member.jar.header() })).status).toBe(200);
    const { text, closedByServer } = await stream.ended();
    expect(closedByServer).toBe(true);
    expect(text).toContain('"type":"session-ended"');
  });

  it('ends the streams of the other sessions when the password changes', async () => {
    const member = await addMember(ctx, admin);
    const elsewhere = await signIn(member.email, member.password);
    const stream = await openStream(elsewhere);
    const change = await ctx.request('POST', '/api/account/password', {
      body: {
        currentPassword: member.password,
        newPassword: 'a-brand-new-password-2',
        confirmPassword: 'a-brand-new-password-2',
      },
      headers: member.jar.header(),
    });
    expect(change.status).toBe(200);
    expect((await stream.ended()).closedByServer).toBe(true);
  });

  it('ends the streams of a user whose password is reset from the e-mailed link', async () => {
    const member = await addMember(ctx, admin);
    const stream = await openStream(member.jar);
    await ctx.request('POST', '/api/password/forgot', { body: { email: member.email } });
    const { response } = await followLink(ctx, linkIn((await latestMail(ctx, member.email, 'Reset')).text));
    const token = new URL(response.headers.get('location')!, 'http://localhost:3000').searchParams.get(
      'token',
    );
    const reset = await ctx.request('POST', '/api/password/reset', {
      body: { token, password: 'reset-password-3', confirmPassword: 'reset-password-3' },
    });
    expect(reset.status).toBe(200);
    expect((await stream.ended()).closedByServer).toBe(true);
  });

  it('ends the stream of a member removed from the workspace, though their session lives on', async () => {
    const member = await addMember(ctx, admin);
    const stream = await openStream(member.jar);
    const removed = await ctx.request(
      'DELETE',
      `/api/workspaces/${admin.workspaceId}/members/${member.memberId}`,
      { headers: admin.jar.header() },
    );
    expect(removed.status).toBe(200);
    const { closedByServer, text } = await stream.ended();
    expect(closedByServer).toBe(true);
    expect(text).not.toContain('health-check-changed');
    expect((await ctx.request('GET', '/api/me', { headers: member.jar.header() })).status).toBe(200);
  });

  it('re-checks every open stream within a minute, so a session ended any other way ends its stream too', async () => {
    expect(STREAM_RECHECK_MS).toBeLessThanOrEqual(60_000);
    const member = await addMember(ctx, admin);
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const stream = await openStream(member.jar);
    // The session disappears without any event (expired, or deleted by an operator).
    await ctx.deps.db.delete(session).where(eq(session.userId, member.userId));
    vi.advanceTimersByTime(STREAM_RECHECK_MS);
    vi.useRealTimers();
    expect((await stream.ended()).closedByServer).toBe(true);
  });

  it('keeps a stream open while its session and access are valid', async () => {
    const member = await addMember(ctx, admin);
    const stream = await openStream(member.jar);
    expect(await stillDelivers(stream)).toBe(true);
  });
});
