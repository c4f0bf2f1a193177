import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { session } from '../db/schema/auth';
import { STREAM_RECHECK_MS } from '../features/realtime/routes';
import { addMember, passwordResetToken, signIn, useAdmin } from '../test/accounts';
import { readEventStream } from '../test/events';
import { useTestContext } from '../test/harness';
import type { Jar } from '../test/requests';

/**
 * Issue "Trust", item 7: a live stream (Server-Sent Events) ends with the right that opened it: at logout, at a
 * password change or reset, at removal from the workspace, and within a minute of its session ending any
 * other way. Before the fix a stream kept receiving the workspace's events after all of these.
 */

const ctx = useTestContext();
const admin = useAdmin(ctx);
afterEach(() => {
  vi.useRealTimers();
});

/** Opens a stream of the workspace's events and waits for its 'ready' event. */
async function openStream(jar: Jar, workspaceId = admin.workspaceId) {
  const response = await ctx.call(jar, 'GET', `/api/events?topic=workspace:${workspaceId}`);
  expect(response.status).toBe(200);
  const stream = readEventStream(response);
  await stream.waitFor('ready');
  return stream;
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
    const elsewhere = await signIn(ctx, member.email, member.password);
    const stream = await openStream(elsewhere);
    expect((await ctx.call(member.jar, 'POST', '/api/logout')).status).toBe(200);
    const { text, closedByServer } = await stream.ended();
    expect(closedByServer).toBe(true);
    expect(text).toContain('"type":"session-ended"');
  });

  it('ends the streams of the other sessions when the password changes', async () => {
    const member = await addMember(ctx, admin);
    const elsewhere = await signIn(ctx, member.email, member.password);
    const stream = await openStream(elsewhere);
    const change = await ctx.call(member.jar, 'POST', '/api/account/password', {
      currentPassword: member.password,
      newPassword: 'a-brand-new-password-2',
      confirmPassword: 'a-brand-new-password-2',
    });
    expect(change.status).toBe(200);
    expect((await stream.ended()).closedByServer).toBe(true);
  });

  it('ends the streams of a user whose password is reset from the e-mailed link', async () => {
    const member = await addMember(ctx, admin);
    const stream = await openStream(member.jar);
    const token = await passwordResetToken(ctx, member.email);
    const reset = await ctx.request('POST', '/api/password/reset', {
      body: { token, password: 'reset-password-3', confirmPassword: 'reset-password-3' },
    });
    expect(reset.status).toBe(200);
    expect((await stream.ended()).closedByServer).toBe(true);
  });

  it('ends the stream of a member removed from the workspace, though their session lives on', async () => {
    const member = await addMember(ctx, admin);
    const stream = await openStream(member.jar);
    const removed = await ctx.call(
      admin.jar,
      'DELETE',
      `/api/workspaces/${admin.workspaceId}/members/${member.memberId}`,
    );
    expect(removed.status).toBe(200);
    const { closedByServer, text } = await stream.ended();
    expect(closedByServer).toBe(true);
    expect(text).not.toContain('health-check-changed');
    expect((await ctx.call(member.jar, 'GET', '/api/me')).status).toBe(200);
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
