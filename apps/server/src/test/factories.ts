import { randomBytes } from 'node:crypto';
import { and, desc, eq, like } from 'drizzle-orm';
import { mailOutbox } from '../db/schema/messaging';
import type { TestContext } from './harness';

export const unique = (prefix = 'user') => `${prefix}-${randomBytes(5).toString('hex')}`;
export const uniqueEmail = (prefix = 'user') => `${unique(prefix)}@example.com`;
export const randomIp = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250) + 1).join('.')}`;

/** A minimal cookie jar: keeps name=value pairs from Set-Cookie headers, drops expired ones. */
export class CookieJar {
  private cookies = new Map<string, string>();

  store(response: Response) {
    for (const header of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = header.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      const expired = attributes.some((a) => /max-age=0\b/i.test(a.trim())) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  header(): Record<string, string> {
    return this.cookies.size ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {};
  }
}

export const validSignup = (overrides: Record<string, unknown> = {}) => ({
  fullName: 'Ada Admin',
  email: uniqueEmail('admin'),
  password: 'correct-horse-battery',
  confirmPassword: 'correct-horse-battery',
  companyName: 'Acme Rockets',
  companySize: '11-50',
  role: 'Head of People',
  acceptTerms: true,
  ...overrides,
});

/** The newest e-mail to `to` whose subject matches, from the outbox the server writes every message to. */
export async function latestMail(ctx: TestContext, to: string, subject = '') {
  const [mail] = await ctx.deps.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.to, to.toLowerCase()), like(mailOutbox.subject, `%${subject}%`)))
    .orderBy(desc(mailOutbox.createdAt))
    .limit(1);
  if (!mail) throw new Error(`no e-mail to ${to} (${subject})`);
  return mail;
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

/** Signs an admin up, verifies the e-mail and runs the organisation set-up; returns a signed-in cookie jar. */
export async function createAdmin(ctx: TestContext, overrides: Record<string, unknown> = {}) {
  const body = validSignup(overrides);
  const signup = await ctx.request('POST', '/api/signup', { body });
  if (signup.status !== 201) throw new Error(`sign-up failed: ${signup.status} ${await signup.text()}`);
  const mail = await latestMail(ctx, body.email, 'Verify');
  const { jar } = await followLink(ctx, linkIn(mail.text));
  const setup = await ctx.request('POST', '/api/onboarding/setup', { headers: jar.header() });
  if (setup.status !== 200) throw new Error(`set-up failed: ${setup.status} ${await setup.text()}`);
  const me = (await (await ctx.request('GET', '/api/me', { headers: jar.header() })).json()) as {
    user: { id: string; activeWorkspaceId: string };
  };
  return { ...body, jar, userId: me.user.id, workspaceId: me.user.activeWorkspaceId };
}
