import { Hono } from 'hono';
import { fromThisMachine } from '../lib/client-ip';
import type { AppEnv } from '../lib/router';
import { recentMail } from './outbox';

const escape = (value: string) => value.replace(/[&<>"]/g, (ch) => `&#${ch.charCodeAt(0)};`);

/**
 * /dev/mail: the latest e-mails with their links (reset links included), for a local installation without SMTP
 * (app.ts mounts it only outside production and without SMTP_URL). It answers only a client on this machine
 * (`fromThisMachine`: a loopback peer asking for a local `Host`); others get a 404.
 */
export const devMailRoutes = new Hono<AppEnv>().get('/dev/mail', async (c) => {
  if (!fromThisMachine(c)) return c.notFound();
  const mails = await recentMail(c.get('deps').db, c.req.query('to'));
  const rows = mails
    .map((mail) => {
      const links = [...new Set(mail.text.match(/https?:\/\/[^\s"'<>]+/g) ?? [])]
        .map((link) => `<li><a href="${escape(link)}">${escape(link)}</a></li>`)
        .join('');
      return `<article><h2>${escape(mail.subject)}</h2><p>To ${escape(mail.to)} · ${mail.createdAt.toISOString()} · ${mail.status}</p><ul>${links}</ul><pre>${escape(mail.text)}</pre></article>`;
    })
    .join('<hr>');
  return c.html(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Outgoing e-mail</title><style>body{font-family:system-ui;max-width:50rem;margin:2rem auto;padding:0 1rem}pre{white-space:pre-wrap;background:#f1f5f9;padding:1rem}</style></head><body><h1>Outgoing e-mail (development)</h1>${rows || '<p>No e-mail yet.</p>'}</body></html>`,
  );
});
