import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import { first, type Db } from '../db/client';
import { mailBodies, mailOutbox } from '../db/schema/messaging';
import type { DatabaseHealth } from '../db/health';
import type { Logger } from '../logger';
import { startWorker, workDue, type WorkTable } from '../lib/worker';
import type { MailContent } from './templates';

export type OutgoingMail = MailContent & { to: string; kind: string };
type Content = Pick<MailContent, 'html' | 'text'>;

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
 * Where a shared body (`storeBody`) carries each message's personal part; it survives HTML escaping and URL
 * encoding, so it can stand in a link.
 */
export const PERSONAL = '__PERSONAL__';

/**
 * Stores the body of messages that differ only by a personal part (`PERSONAL` in its html and text, such as a
 * token in a link), once however many messages use it; answers its id for `mailInsert`. It must hold nothing
 * about any one recipient. It goes with its workspace, and so do the messages that use it.
 */
export async function storeBody(db: Db, workspaceId: string, content: Content): Promise<string> {
  const [row] = await db
    .insert(mailBodies)
    .values({ workspaceId, html: content.html, text: content.text })
    .returning({ id: mailBodies.id });
  return row!.id;
}

/**
 * The statement that queues the e-mails a SELECT yields, however many (`insert … returning id`, to run alone or as a
 * WITH query): a round's invitations to ten thousand members are written by the database, not sent over the wire
 * one by one. The SELECT's columns are kind, to, subject and either html and text, or, with `bodyId` (`storeBody`),
 * each message's personal part (personal), so that the body is stored once instead of in every message. `bodyId`
 * may also be an SQL expression over the SELECT's row (`m`), for messages that share one of a few bodies (one per
 * language: a loop round's e-mails).
 */
export function mailInsert(select: SQL, options: { failed?: string; bodyId?: string | SQL } = {}): SQL {
  const bodyId = typeof options.bodyId === 'string' ? sql`${options.bodyId}` : options.bodyId;
  const content = bodyId ? sql`null, null, ${bodyId}::uuid, m.personal` : sql`m.html, m.text, null, null`;
  return sql`insert into mail_outbox (kind, "to", subject, html, text, body_id, personal, status, last_error)
             select m.kind, lower(m."to"), m.subject, ${content}, ${options.failed ? 'failed' : 'pending'},
                    ${options.failed ?? null}
             from (${select}) m
             returning id`;
}

type Stored = { html: string | null; text: string | null; bodyId: string | null; personal: string | null };

/** Reads shared bodies by id, each once: the messages of a batch mostly share one. */
function bodyReader(db: Db) {
  const read = new Map<string, Promise<Content>>();
  return (id: string) => {
    let body = read.get(id);
    if (!body) {
      body = first(db.select().from(mailBodies).where(eq(mailBodies.id, id))).then((row) => {
        if (!row) throw new Error(`e-mail body ${id} is missing`);
        return row;
      });
      read.set(id, body);
    }
    return body;
  };
}

/** A message as it is sent: its own html and text, or its shared body with its personal part in place of `PERSONAL`. */
async function contentOf(row: Stored, body: ReturnType<typeof bodyReader>): Promise<Content> {
  if (row.bodyId !== null && row.personal !== null) {
    const shared = await body(row.bodyId);
    const fill = (template: string) => template.split(PERSONAL).join(row.personal ?? '');
    return { html: fill(shared.html), text: fill(shared.text) };
  }
  if (row.html === null || row.text === null) throw new Error('an outbox message without content');
  return { html: row.html, text: row.text };
}

/** Outbox rows with the html and text they are sent with (`contentOf`). */
export async function complete<R extends Stored>(db: Db, rows: R[]): Promise<(R & Content)[]> {
  const body = bodyReader(db);
  return Promise.all(rows.map(async (row) => ({ ...row, ...(await contentOf(row, body)) })));
}

/** Rows per insert: five parameters each, far below PostgreSQL's 65,535. */
const ENQUEUE_CHUNK = 500;

/** A message as the worker sends it. */
type Claimed = { id: string; to: string; subject: string; attempts: number } & Content;
/** A claimed outbox row, as `returning *` gives it. */
type ClaimedRow = Omit<Claimed, keyof Content> & {
  html: string | null;
  text: string | null;
  body_id: string | null;
  personal: string | null;
};

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
  const body = bodyReader(db);
  return workDue<ClaimedRow>(db, OUTBOX, {
    logger,
    context: (mail) => ({ to: mail.to }),
    run: async ({ body_id: bodyId, personal, ...mail }) =>
      send({ ...mail, ...(await contentOf({ ...mail, bodyId, personal }, body)) }),
  });
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
  health?: DatabaseHealth;
  send: (mail: Claimed) => Promise<void>;
}) {
  return startWorker({
    name: 'outbox',
    intervalMs: POLL_MS,
    logger: options.logger,
    health: options.health,
    work: async (stopped) => {
      while ((await processOutbox(options)) === BATCH && !stopped());
    },
  });
}

/** Recent messages, for /dev/mail outside production. */
export async function recentMail(db: Db, to?: string) {
  const rows = await db
    .select()
    .from(mailOutbox)
    .where(to ? and(eq(mailOutbox.to, to.toLowerCase())) : undefined)
    .orderBy(desc(mailOutbox.createdAt))
    .limit(50);
  return complete(db, rows);
}
