import type { ActionItem, ResultsResponse } from '@pulsecheck/shared/results/schemas';
import type { NotificationsResponse } from '@pulsecheck/shared/notifications/schemas';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAdmin, signedInParticipant, signedInUser, useAdmin } from '../../test/accounts';
import { useTestContext } from '../../test/harness';
import { addParticipants, createCheck, rateAll, type CheckFixture } from '../../test/health-checks';
import type { Jar } from '../../test/requests';

const ctx = useTestContext();
const admin = useAdmin(ctx);
let check: CheckFixture;
let owner: Awaited<ReturnType<typeof signedInUser>>;
let mentioned: Awaited<ReturnType<typeof signedInParticipant>>;

beforeAll(async () => {
  check = await createCheck(ctx, admin, { phase: 'summarize' });
  await rateAll(ctx, check, await addParticipants(ctx, check, 3), () => 'healthy');
  owner = await signedInUser(ctx, { workspaceId: admin.workspaceId, access: 'member', name: 'Olivia Owner' });
  mentioned = await signedInParticipant(ctx, check);
});

const create = (jar: Jar, body: unknown, id = check.healthCheckId) =>
  ctx.call(jar, 'POST', `/api/health-checks/${id}/action-items`, body);
const bell = async (jar: Jar) =>
  (await (await ctx.call(jar, 'GET', '/api/notifications')).json()) as NotificationsResponse;

describe('members for owners and @mentions', () => {
  it("lists the check's workspace members, filtered by name or e-mail; 404 for non-managers", async () => {
    let response = await ctx.call(admin.jar, 'GET', `/api/health-checks/${check.healthCheckId}/members`);
    expect(response.status).toBe(200);
    const { members } = (await response.json()) as { members: { id: string; name: string; email: string }[] };
    expect(members.map((m) => m.id)).toEqual(
      expect.arrayContaining([admin.userId, owner.userId, mentioned.userId]),
    );
    response = await ctx.call(admin.jar, 'GET', `/api/health-checks/${check.healthCheckId}/members?q=olivia`);
    expect(((await response.json()) as { members: { id: string }[] }).members.map((m) => m.id)).toEqual([
      owner.userId,
    ]);
    response = await ctx.call(
      admin.jar,
      'GET',
      `/api/health-checks/${check.healthCheckId}/members?q=${encodeURIComponent(mentioned.email)}`,
    );
    expect(((await response.json()) as { members: { id: string }[] }).members.map((m) => m.id)).toEqual([
      mentioned.userId,
    ]);
    response = await ctx.call(mentioned.jar, 'GET', `/api/health-checks/${check.healthCheckId}/members`);
    expect(response.status).toBe(404);
  });
});

describe('action items', () => {
  it('stores an item with owner, due date, status and mentions, and notifies the owner and the mentioned', async () => {
    const response = await create(admin.jar, {
      description: `Write down decisions @${mentioned.name}`,
      ownerId: owner.userId,
      dueDate: '2027-01-31',
      status: 'in-progress',
      componentId: check.components[0]!.id,
      mentionedUserIds: [mentioned.userId],
    });
    expect(response.status).toBe(201);
    const item = (await response.json()) as ActionItem;
    expect(item).toMatchObject({
      description: `Write down decisions @${mentioned.name}`,
      owner: { id: owner.userId, name: 'Olivia Owner' },
      dueDate: '2027-01-31',
      status: 'in-progress',
      componentId: check.components[0]!.id,
      mentioned: [{ id: mentioned.userId }],
    });

    const ownerBell = await bell(owner.jar);
    expect(ownerBell.unread).toBe(1);
    expect(ownerBell.items[0]).toMatchObject({
      type: 'assignment',
      read: false,
      link: `/health-check/${check.healthCheckId}/results`,
    });
    expect(ownerBell.items[0]!.message).toContain('assigned you an action item');
    const mentionedBell = await bell(mentioned.jar);
    expect(mentionedBell.items[0]).toMatchObject({ type: 'mention' });
    expect(
      (await bell(admin.jar)).items.filter((n) => n.type === 'assignment' || n.type === 'mention'),
    ).toEqual([]);

    const results = (await (
      await ctx.call(admin.jar, 'GET', `/api/health-checks/${check.healthCheckId}/results`)
    ).json()) as ResultsResponse;
    expect(results.actionItems!.map((a) => a.id)).toContain(item.id);
  });

  it('edits an item and notifies only newly assigned or newly mentioned people', async () => {
    const item = (await (
      await create(admin.jar, { description: 'Fix the onboarding doc', ownerId: admin.userId })
    ).json()) as ActionItem;
    const before = (await bell(owner.jar)).items.length;
    let response = await ctx.call(admin.jar, 'PATCH', `/api/action-items/${item.id}`, {
      status: 'completed',
      ownerId: owner.userId,
      mentionedUserIds: [mentioned.userId],
    });
    expect(response.status).toBe(200);
    expect((await response.json()) as ActionItem).toMatchObject({
      status: 'completed',
      owner: { id: owner.userId },
    });
    expect((await bell(owner.jar)).items.length).toBe(before + 1);
    const mentions = (await bell(mentioned.jar)).items.filter((n) => n.type === 'mention').length;
    response = await ctx.call(admin.jar, 'PATCH', `/api/action-items/${item.id}`, {
      description: 'Fix the onboarding doc today',
      mentionedUserIds: [mentioned.userId],
    });
    expect(response.status).toBe(200);
    expect((await bell(mentioned.jar)).items.filter((n) => n.type === 'mention').length).toBe(mentions);
    expect((await bell(owner.jar)).items.length).toBe(before + 1);
  });

  it('answers 400 for empty descriptions and for owners or mentions outside the workspace', async () => {
    const outsider = await createAdmin(ctx);
    let response = await create(admin.jar, { description: '   ', ownerId: owner.userId });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      'Description is required',
    );
    response = await create(admin.jar, { description: 'Something', ownerId: outsider.userId });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      'The owner must be a member of this workspace',
    );
    response = await create(admin.jar, {
      description: 'Something',
      ownerId: owner.userId,
      mentionedUserIds: [outsider.userId],
    });
    expect(response.status).toBe(400);
    response = await create(admin.jar, {
      description: 'Something',
      ownerId: owner.userId,
      dueDate: '31/01/2027',
    });
    expect(response.status).toBe(400);
    const item = (await (
      await create(admin.jar, { description: 'Valid', ownerId: owner.userId })
    ).json()) as ActionItem;
    response = await ctx.call(admin.jar, 'PATCH', `/api/action-items/${item.id}`, { description: '' });
    expect(response.status).toBe(400);
  });

  it('lets only managers of the workspace add or edit items (others 404)', async () => {
    const outsider = await createAdmin(ctx);
    expect((await create(outsider.jar, { description: 'x', ownerId: outsider.userId })).status).toBe(404);
    expect((await create(mentioned.jar, { description: 'x', ownerId: mentioned.userId })).status).toBe(404);
    const item = (await (
      await create(admin.jar, { description: 'Mine', ownerId: owner.userId })
    ).json()) as ActionItem;
    const response = await ctx.call(outsider.jar, 'PATCH', `/api/action-items/${item.id}`, {
      status: 'completed',
    });
    expect(response.status).toBe(404);
  });
});

describe('the bell', () => {
  it('lists the latest 20 with the unread count, marks one or all read, only for their owner', async () => {
    const person = await signedInUser(ctx, { workspaceId: admin.workspaceId, access: 'member' });
    for (let i = 0; i < 22; i += 1) {
      await create(admin.jar, { description: `Task ${i}`, ownerId: person.userId });
    }
    let list = await bell(person.jar);
    expect(list.items).toHaveLength(20);
    expect(list.unread).toBe(22);
    expect(list.items[0]!.message).toContain('Task 21');

    const first = list.items[0]!;
    const foreign = await ctx.call(owner.jar, 'POST', `/api/notifications/${first.id}/read`);
    expect(foreign.status).toBe(404);
    const read = await ctx.call(person.jar, 'POST', `/api/notifications/${first.id}/read`);
    expect(read.status).toBe(200);
    list = await bell(person.jar);
    expect(list.unread).toBe(21);
    expect(list.items[0]!.read).toBe(true);

    await ctx.call(person.jar, 'POST', '/api/notifications/read-all');
    list = await bell(person.jar);
    expect(list.unread).toBe(0);
    expect((await ctx.request('GET', '/api/notifications')).status).toBe(401);
  });
});
