import type { Db } from '../db/client';
import { enqueueMail, type OutgoingMail } from './outbox';

export type Mailer = {
  /** Queues a message (inside `tx` when given, so it is sent only if the transaction commits). */
  enqueue(mail: OutgoingMail, tx?: Db): Promise<void>;
};

export function createMailer(db: Db, kick: () => void = () => {}): Mailer {
  return {
    async enqueue(mail, tx) {
      await enqueueMail(tx ?? db, mail);
      kick();
    },
  };
}
