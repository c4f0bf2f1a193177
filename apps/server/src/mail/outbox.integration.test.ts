import { eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../db/client';
import { mailBodies, mailOutbox } from '../db/schema/messaging';
import { workspaces } from '../db/schema/organizations';
import { createLogger } from '../logger';
import { createAdmin } from '../test/accounts';
import { useTestContext } from '../test/harness';
import { enqueueMail, mailInsert, PERSONAL, processOutbox, storeBody } from './outbox';

const ctx = useTestContext();
const logger = createLogger('silent');
const mail = (to: string) => ({ kind: 'test', to, subject: 'Hello', html: '<p>Hi</p>', text: 'Hi' });

describe('mail outbox', () => {
  it('keeps a message when the SMTP server is down and sends it on a later run', async () => {
    await enqueueMail(ctx.deps.db, mail('down@example.com'));
    await processOutbox({ db: ctx.deps.db, logger, send: () => Promise.reject(new Error('ECONNREFUSED')) });
    const [pending] = await ctx.deps.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.to, 'down@example.com'));
    expect(pending).toMatchObject({ status: 'pending', attempts: 1, lastError: 'ECONNREFUSED' });

    await ctx.deps.db
      .update(mailOutbox)
      .set({ nextAttemptAt: new Date() })
      .where(eq(mailOutbox.id, pending!.id));
    const sent: string[] = [];
    await processOutbox({ db: ctx.deps.db, logger, send: async (m) => void sent.push(m.to) });
    expect(sent).toEqual(['down@example.com']);
    const [done] = await ctx.deps.db.select().from(mailOutbox).where(eq(mailOutbox.id, pending!.id));
    expect(done?.status).toBe('sent');
  });

  it('sends each message once when two workers run together', async () => {
    for (let i = 0; i < 5; i++) await enqueueMail(ctx.deps.db, mail(`twice-${i}@example.com`));
    const sent: string[] = [];
    const send = async (m: { to: string }) => void sent.push(m.to);
    await Promise.all([
      processOutbox({ db: ctx.deps.db, logger, send }),
      processOutbox({ db: ctx.deps.db, logger, send }),
    ]);
    expect(sent.filter((to) => to.startsWith('twice-')).sort()).toEqual(
      [0, 1, 2, 3, 4].map((i) => `twice-${i}@example.com`),
    );
  });

  it('sends messages that share a stored body each with its own part, and they go with the workspace', async () => {
    const admin = await createAdmin(ctx);
    const bodyId = await storeBody(ctx.deps.db, admin.workspaceId, {
      html: `<a href="https://app.test/x/${PERSONAL}">Answer</a> ${PERSONAL}`,
      text: `Answer: https://app.test/x/${PERSONAL}`,
    });
    const to = ['shared-a@example.com', 'shared-b@example.com'];
    // Each personal part is a plain string, even one that looks like a replacement pattern.
    const queued = await queryRows(
      ctx.deps.db,
      mailInsert(
        sql`select 'test' as kind, t.to as "to", 'Shared' as subject, t.personal
            from (values (${to[0]}, 'token-a'), (${to[1]}, '$&-b')) as t("to", personal)`,
        { bodyId },
      ),
    );
    expect(queued).toHaveLength(2);
    const sent: { to: string; html: string; text: string }[] = [];
    await processOutbox({ db: ctx.deps.db, logger, send: async (m) => void sent.push(m) });
    expect(sent.filter((m) => to.includes(m.to)).sort((a, b) => a.to.localeCompare(b.to))).toMatchObject([
      {
        to: to[0],
        html: '<a href="https://app.test/x/token-a">Answer</a> token-a',
        text: 'Answer: https://app.test/x/token-a',
      },
      {
        to: to[1],
        html: '<a href="https://app.test/x/$&-b">Answer</a> $&-b',
        text: 'Answer: https://app.test/x/$&-b',
      },
    ]);

    // A message has its own content or a body and its part, never neither.
    await expect(
      ctx.deps.db
        .insert(mailOutbox)
        .values({ kind: 'test', to: 'broken@example.com', subject: 'Broken', bodyId }),
    ).rejects.toThrow();
    await ctx.deps.db.delete(workspaces).where(eq(workspaces.id, admin.workspaceId));
    expect(await ctx.deps.db.select().from(mailBodies).where(eq(mailBodies.id, bodyId))).toEqual([]);
    expect(await ctx.deps.db.select().from(mailOutbox).where(inArray(mailOutbox.to, to))).toEqual([]);
  });
});
