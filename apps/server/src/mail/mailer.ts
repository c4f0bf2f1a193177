import type { Db } from '../db/client';
import type { SQL } from 'drizzle-orm';
import { enqueueMails, mailInsert, storeBody, type OutgoingMail } from './outbox';
import type { MailContent } from './templates';

/** Why an e-mail was not sent when MAIL_DISABLED=true: kept on its outbox row, shown where delivery is. */
export const MAIL_DISABLED_REASON = 'E-mail is switched off on this server (MAIL_DISABLED=true)';

export type Mailer = {
  /** False when MAIL_DISABLED=true: every e-mail is then recorded as failed, and answers say none was sent. */
  readonly enabled: boolean;
  /** Queues a message (inside `tx` when given, so it is sent only if the transaction commits). */
  enqueue(mail: OutgoingMail, tx?: Db): Promise<void>;
  /** `enqueue` for many messages, in few statements. */
  enqueueMany(mails: OutgoingMail[], tx?: Db): Promise<void>;
  /** Stores the body that messages differing only by a personal part share (`storeBody`); answers its id. */
  storeBody(workspaceId: string, content: Pick<MailContent, 'html' | 'text'>): Promise<string>;
  /**
   * Queues the messages a SELECT yields, as a WITH query of a statement the caller runs (`mailInsert`), with their
   * own content or each with its personal part for the shared body `bodyId` (an id, or an SQL expression over the
   * SELECT's row `m` choosing one of several stored bodies). Call `queued` once it ran.
   */
  queueFrom(select: SQL, bodyId?: string | SQL): SQL;
  /** Tells the outbox that a statement of `queueFrom` queued messages. */
  queued(): void;
};

export function createMailer(db: Db, options: { kick?: () => void; disabled?: boolean } = {}): Mailer {
  const { kick = () => {}, disabled = false } = options;
  const off = disabled ? { failed: MAIL_DISABLED_REASON } : undefined;
  const enqueueMany = async (mails: OutgoingMail[], tx?: Db) => {
    if (mails.length === 0) return;
    // Switched off: the e-mail is still recorded (so delivery shows 'failed' with the reason), never sent.
    await enqueueMails(tx ?? db, mails, off);
    if (!disabled) kick();
  };
  return {
    enabled: !disabled,
    enqueue: (mail, tx) => enqueueMany([mail], tx),
    enqueueMany,
    storeBody: (workspaceId, content) => storeBody(db, workspaceId, content),
    queueFrom: (select, bodyId) => mailInsert(select, { ...off, bodyId }),
    queued: () => {
      if (!disabled) kick();
    },
  };
}
