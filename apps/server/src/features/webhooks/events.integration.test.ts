import { WEBHOOK_EVENTS } from '@pulsecheck/shared/webhooks/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createAdmin, type Admin } from '../../test/accounts';
import { useTestContext } from '../../test/harness';
import { addComment, addParticipants, createCheck, launch, rateAll } from '../../test/health-checks';
import { addPeople, launchLoop } from '../../test/loops';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/webhook-receiver';
import { deliverWebhooks } from '../../webhooks/delivery';

/**
 * The events the services emit (issue 35 item 3), delivered to a real receiver: each of them, with ids, names and
 * released figures only. An anonymous check's events carry nothing about any one person: no name, address, user
 * or participant id, rating or comment of a participant.
 */
describe('webhook events', () => {
  const ctx = useTestContext({ allowLoopbackWebhooks: true });
  let receiver: WebhookReceiver;
  let admin: Admin;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    admin = await createAdmin(ctx);
    const response = await ctx.call(admin.jar, 'POST', `/api/workspaces/${admin.workspaceId}/webhooks`, {
      url: receiver.url,
      events: [...WEBHOOK_EVENTS],
    });
    expect(response.status).toBe(201);
  });
  afterAll(() => receiver.close());

  const deliverAll = async () => {
    const options = {
      db: ctx.deps.db,
      logger: ctx.deps.logger,
      mailer: ctx.deps.mailer,
      config: ctx.deps.config,
    };
    while ((await deliverWebhooks(options)) > 0);
  };
  const received = (type: string) => receiver.events().filter((e) => e.type === type);

  it("emits each event from the service where it happens; an anonymous check's carry no per-person data", async () => {
    // Launched through the API.
    const launched = await launch(ctx, admin.jar, admin.workspaceId, { title: 'Launch event' });
    // An anonymous check (the default) with three people who completed it, ratings and a comment.
    const check = await createCheck(ctx, admin, { title: 'Anonymous check', componentCount: 3 });
    const people = await addParticipants(ctx, check, 3, {
      names: ['Zelda Secret', 'Yann Hidden', 'Xena Private'],
    });
    const ratings = await rateAll(ctx, check, people, (i) => (i === 0 ? 'fire-warning' : 'healthy'));
    await addComment(ctx, {
      participantId: people[0]!.participantId,
      ratingId: ratings.get(`${people[0]!.participantId}:${check.componentIds[0]}`)!,
      content: 'A very personal remark',
    });
    for (const to of ['vote', 'summarize'] as const) {
      const moved = await ctx.call(admin.jar, 'POST', `/api/health-checks/${check.healthCheckId}/phase`, {
        to,
      });
      expect(moved.status).toBe(200);
    }
    const item = await ctx.call(admin.jar, 'POST', `/api/health-checks/${check.healthCheckId}/action-items`, {
      description: 'Fix onboarding',
      ownerId: admin.userId,
    });
    expect(item.status).toBe(201);
    const { id: itemId } = (await item.json()) as { id: string };
    expect(
      (await ctx.call(admin.jar, 'PATCH', `/api/action-items/${itemId}`, { status: 'completed' })).status,
    ).toBe(200);
    await addPeople(ctx, admin.workspaceId, 3);
    const loop = await launchLoop(ctx, admin.jar, admin.workspaceId);
    const detail = (await (await ctx.call(admin.jar, 'GET', `/api/loops/${loop.id}`)).json()) as {
      loop: { currentRound: { id: string } | null };
    };
    const roundId = detail.loop.currentRound!.id;
    expect((await ctx.call(admin.jar, 'POST', `/api/loops/${loop.id}/rounds/${roundId}/close`)).status).toBe(
      200,
    );
    const member = await addMember(
      ctx,
      { jar: admin.jar, workspaceId: admin.workspaceId },
      { fullName: 'Mo Newcomer' },
    );
    await deliverAll();

    expect(received('health_check.launched').map((e) => e.data.healthCheck)).toContainEqual({
      id: launched.id,
      title: 'Launch event',
      anonymous: true,
    });
    expect(received('health_check.phase_changed').map((e) => e.data.healthCheck)).toEqual([
      {
        id: check.healthCheckId,
        title: 'Anonymous check',
        anonymous: true,
        phase: 'vote',
        previousPhase: 'collect',
      },
      {
        id: check.healthCheckId,
        title: 'Anonymous check',
        anonymous: true,
        phase: 'summarize',
        previousPhase: 'vote',
      },
    ]);
    expect(received('health_check.completed')).toHaveLength(1);
    // Released when collection ended with enough responses: the counts per rating, nothing per person.
    // Once, when collection ended (voting needs the minimum of responses, so it opens them), not again.
    expect(received('results.released')).toHaveLength(1);
    const [released] = received('results.released');
    expect(released!.data).toMatchObject({ responses: 3, workspaceId: admin.workspaceId });
    expect(released!.data.components).toContainEqual(
      expect.objectContaining({
        id: check.componentIds[0],
        healthy: 2,
        fireWarning: 1,
        needsImprovement: 0,
        dontKnow: 0,
      }),
    );
    expect(received('action_item.created').map((e) => e.data.actionItem)).toEqual([
      { id: itemId, title: 'Fix onboarding', status: 'pending', healthCheckId: check.healthCheckId },
    ]);
    expect(received('action_item.updated')).toHaveLength(1);
    expect(
      received('action_item.completed').map((e) => (e.data.actionItem as { status: string }).status),
    ).toEqual(['completed']);
    expect(received('loop.round_opened').map((e) => e.data.round)).toContainEqual(
      expect.objectContaining({ id: roundId }),
    );
    expect(received('loop.round_closed').map((e) => e.data.round)).toContainEqual(
      expect.objectContaining({ id: roundId }),
    );
    expect(received('member.joined').map((e) => e.data.member)).toEqual([
      { id: member.memberId, name: 'Mo Newcomer' },
    ]);

    // Nothing about any participant of the anonymous check, anywhere in any body.
    const everything = receiver.received.map((r) => r.body).join('\n');
    for (const person of people)
      for (const secret of [person.name, person.email, person.userId, person.participantId])
        expect(everything).not.toContain(secret);
    expect(everything).not.toContain('A very personal remark');
    for (const ratingId of ratings.values()) expect(everything).not.toContain(ratingId);
  });
});
