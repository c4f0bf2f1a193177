import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startApp } from './support/app-server';
import { startMailCapture } from './support/mail-capture';

/** Starts a local SMTP server that keeps every message, and the built app on a free port with a fresh DATA_DIR. */
export default async function globalSetup() {
  const work = await mkdtemp(path.join(tmpdir(), 'pulsecheck-e2e-'));
  const mail = await startMailCapture(path.join(work, 'mail'));
  const app = await startApp({ work, smtpPort: mail.port });
  process.env.E2E_BASE_URL = app.baseUrl;
  process.env.E2E_MAIL_DIR = mail.dir;
  // A spec that needs a server of its own (passkeys need a domain) sends its e-mail here too.
  process.env.E2E_SMTP_PORT = String(mail.port);

  return async () => {
    await app.stop();
    await mail.close();
    await rm(work, { recursive: true, force: true });
  };
}
