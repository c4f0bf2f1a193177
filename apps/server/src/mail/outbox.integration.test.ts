import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { mailOutbox } from '../db/schema/messaging';
import { createLogger } from '../logger';
import { useTestContext } from '../test/harness';
import { enqueueMail, processOutbox } from './outbox';

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
});
