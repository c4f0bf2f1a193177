import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import { queryRows, type Db } from '../db/client';
import { mailOutbox } from '../db/schema/messaging';
import type { Logger } from '../logger';
import { startWorker, workDue, type WorkTable } from '../lib/worker';
import type { MailContent } from './templates';

export type OutgoingMail = MailContent & { to: string; kind: string };

const MAX_ATTEMPTS = 8;
const BATCH = 20;
const POLL_MS = 2_000;

/**
 * Writes a message to the outbox; the worker sends it. Pass a transaction to make it part of one. With `failed`,
 * the message is recorded as failed with that reason and never sent (MAIL_DISABLED, see mailer.ts).
 */
export const enqueueMail = (db: Db, mail: OutgoingMail, options?: { failed: string }) =>
  enqueueMails(db, [mail], options);

/** `enqueueMail` for many messages: one insert per few hundred (opening a round for a large audience). */
export async function enqueueMails(
  db: Db,
  mails: OutgoingMail[],
  options?: { failed: string },
): Promise<void> {
  for (let start = 0; start < mails.length; start += ENQUEUE_CHUNK) {
    await db.insert(mailOutbox).values(
      mails.slice(start, start + ENQUEUE_CHUNK).map((mail) => ({
        kind: mail.kind,
        to: mail.to.toLowerCase(),
        subject: mail.subject,
        html: mail.html,
        text: mail.text,
        ...(options ? { status: 'failed', lastError: options.failed } : {}),
      })),
    );
  }
}

/**
 * Queues the e-mails a SELECT yields (columns kind, to, subject, html, text), in one statement however many: a
 * round's invitations to ten thousand members are written by the database, not sent over the wire one by one.
 */
export async function enqueueMailsFrom(db: Db, select: SQL, options?: { failed: string }): Promise<number> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`insert into mail_outbox (kind, "to", subject, html, text, status, last_error)
        select m.kind, lower(m."to"), m.subject, m.html, m.text, ${options ? 'failed' : 'pending'},
               ${options?.failed ?? null}
        from (${select}) m
        returning id`,
  );
  return rows.length;
}

/** Rows per insert: five parameters each, far below PostgreSQL's 65,535. */
const ENQUEUE_CHUNK = 500;

type Claimed = { id: string; to: string; subject: string; html: string; text: string; attempts: number };

const OUTBOX: WorkTable = {
  table: 'mail_outbox',
  due: 'next_attempt_at',
  done: sql`status = 'sent', sent_at = now(), last_error = null`,
  lockFor: '2 minutes',
  limit: BATCH,
  backoff: { maxAttempts: MAX_ATTEMPTS, baseSeconds: 5, what: 'e-mail' },
};

/** Sends what is due. Rows are claimed with SKIP LOCKED, so several processes never send one message twice. */
export async function processOutbox(options: {
  db: Db;
  logger: Logger;
  send: (mail: Claimed) => Promise<void>;
}): Promise<number> {
  const { db, logger, send } = options;
  return workDue<Claimed>(db, OUTBOX, { logger, context: (mail) => ({ to: mail.to }), run: send });
}

const LINK = /https?:\/\/[^\s"'<>]+/g;

/** The sender: SMTP when configured; otherwise the message and its links go to the log. */
export function createSender(options: { smtpUrl: string | undefined; from: string; logger: Logger }) {
  const { smtpUrl, from, logger } = options;
  const transport: Transporter | undefined = smtpUrl ? nodemailer.createTransport(smtpUrl) : undefined;
  return async (mail: Claimed) => {
    if (!transport) {
      logger.info(
        { to: mail.to, subject: mail.subject, links: mail.text.match(LINK) ?? [] },
        'e-mail (no SMTP_URL; not sent)',
      );
      return;
    }
    await transport.sendMail({ from, to: mail.to, subject: mail.subject, html: mail.html, text: mail.text });
  };
}

/** Runs the outbox every few seconds and whenever `kick()` says there is new mail. */
export function startOutboxWorker(options: {
  db: Db;
  logger: Logger;
  send: (mail: Claimed) => Promise<void>;
}) {
  return startWorker({
    name: 'outbox',
    intervalMs: POLL_MS,
    logger: options.logger,
    work: async (stopped) => {
      while ((await processOutbox(options)) === BATCH && !stopped());
    },
  });
}

/** Recent messages, for /dev/mail outside production. */
export async function recentMail(db: Db, to?: string) {
  return db
    .select()
    .from(mailOutbox)
    .where(to ? and(eq(mailOutbox.to, to.toLowerCase())) : undefined)
    .orderBy(desc(mailOutbox.createdAt))
    .limit(50);
}
