import { and, desc, eq, like } from 'drizzle-orm';
import { mailOutbox } from '../db/schema/messaging';
import { notificationJobHandlers } from '../features/account/notification-jobs';
import { runDueJobs } from '../jobs/queue';
import { complete } from '../mail/outbox';
import { createLogger } from '../logger';
import type { TestContext } from './harness';
import { CookieJar } from './requests';

/** What the app sends: the outbox it writes every e-mail to, the links in them, the jobs that deliver them. */

/** Every e-mail to `email`, newest first. */
export async function mailsTo(ctx: TestContext, email: string) {
  const rows = await ctx.deps.db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.to, email.toLowerCase()))
    .orderBy(desc(mailOutbox.createdAt));
  return complete(ctx.deps.db, rows);
}

/** The newest e-mail to `to` whose subject contains `subject`. */
export async function latestMail(ctx: TestContext, to: string, subject = '') {
  const [mail] = await ctx.deps.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.to, to.toLowerCase()), like(mailOutbox.subject, `%${subject}%`)))
    .orderBy(desc(mailOutbox.createdAt))
    .limit(1);
  if (!mail) throw new Error(`no e-mail to ${to} (${subject})`);
  const [sent] = await complete(ctx.deps.db, [mail]);
  return sent!;
}

export const linkIn = (text: string) => {
  const link = /https?:\/\/\S+/.exec(text)?.[0];
  if (!link) throw new Error('no link in the e-mail');
  return link;
};

/** Opens an e-mailed link against the app (its path and query), keeping the cookies it sets. */
export async function followLink(ctx: TestContext, link: string, jar = new CookieJar()) {
  const url = new URL(link);
  const response = jar.store(
    await ctx.request('GET', `${url.pathname}${url.search}`, { headers: jar.header() }),
  );
  return { response, jar };
}

/** Runs every due notification job (deliveries, the schedule and its fan-outs) until none is left. */
export async function runNotificationJobs(ctx: TestContext) {
  const handlers = notificationJobHandlers(ctx.deps);
  const logger = createLogger('silent');
  for (let i = 0; i < 10 && (await runDueJobs({ db: ctx.deps.db, logger, handlers })) > 0; i++);
}
