import { SMTPServer } from 'smtp-server';

export type CapturedMail = { to: string[]; subject: string; raw: string };

/**
 * A real SMTP server on loopback that keeps every message it accepts, for tests of server processes that send
 * e-mail (their SMTP_URL is `url`).
 */
export async function startSmtpCapture() {
  const mails: CapturedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          subject: /^Subject: (.*)$/m.exec(raw)?.[1]?.trim() ?? '',
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    /** Waits until `count` e-mails (or those `match` accepts) arrived, up to `timeoutMs`. */
    async waitFor(count: number, match: (mail: CapturedMail) => boolean = () => true, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (mails.filter(match).length < count && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      return mails.filter(match);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
