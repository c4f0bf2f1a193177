import { randomBytes } from 'node:crypto';
import { expect, type BrowserContext, type Page } from '@playwright/test';
import { waitForMail } from './mail-capture';

export const uniqueEmail = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}@example.com`;
/** The first link of an e-mail's text. */
export const linkIn = (text: string) => {
  const link = /https?:\/\/\S+/.exec(text)?.[0];
  if (!link) throw new Error('no link in the e-mail');
  return link;
};

/**
 * A signed-in admin with a set-up organisation, in `page`'s browser context: sign-up through the API, the
 * verification link from the e-mail really sent, opened in the page, then the organisation set-up.
 */
export async function signUpAdmin(
  page: Page,
  mailDir: string,
  options: { fullName?: string; companyName?: string; email?: string } = {},
) {
  const email = options.email ?? uniqueEmail('admin');
  const password = 'e2e-password-123';
  const response = await page.request.post('/api/signup', {
    data: {
      fullName: options.fullName ?? 'Alex Admin',
      email,
      password,
      confirmPassword: password,
      companyName: options.companyName ?? 'Rocket Teams',
      companySize: '11-50',
      role: 'Head of People',
      acceptTerms: true,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  const mail = await waitForMail(mailDir, email, /Verify your email/);
  await page.goto(linkIn(mail.text));
  // The confirmation screen may already have run the set-up; a second call answers 409.
  const setup = await page.request.post('/api/onboarding/setup');
  expect([200, 409]).toContain(setup.status());
  await expect
    .poll(async () => {
      const me = await page.request.get('/api/me');
      return ((await me.json()) as { user?: { setupStatus?: string } }).user?.setupStatus;
    })
    .toBe('completed');
  const me = (await (await page.request.get('/api/me')).json()) as {
    user: { id: string; activeWorkspaceId: string };
  };
  return { email, password, userId: me.user.id, workspaceId: me.user.activeWorkspaceId };
}

/**
 * A participant in `context` who signs up for the check through the API, verifies from the e-mail really sent
 * (which signs them in, in the returned page) and joins it.
 */
export async function joinedParticipant(
  context: BrowserContext,
  mailDir: string,
  healthCheckId: string,
  fullName: string,
  email = uniqueEmail(fullName.split(' ')[0]!.toLowerCase()),
) {
  const password = 'e2e-password-456';
  const signup = await context.request.post('/api/signup/participant', {
    data: { fullName, email, password, healthCheckId },
  });
  expect(signup.status(), await signup.text()).toBe(201);
  const mail = await waitForMail(mailDir, email, /Verify your email/);
  const page = await context.newPage();
  await page.goto(linkIn(mail.text));
  const join = await context.request.post(`/api/health-checks/${healthCheckId}/join`);
  expect(join.ok(), await join.text()).toBe(true);
  return { page, email, password };
}

/**
 * A participant who signs up for the check through the API, verifies by e-mail in `context`, joins and
 * submits a rating for every component (`ratings` in component order, 'healthy' where it says none): one
 * completed response.
 */
export async function completeParticipation(
  context: BrowserContext,
  mailDir: string,
  healthCheckId: string,
  fullName = 'Pat Participant',
  ratings: string[] = [],
) {
  const { page, email, password } = await joinedParticipant(context, mailDir, healthCheckId, fullName);
  const participation = (await (
    await context.request.get(`/api/health-checks/${healthCheckId}/participation`)
  ).json()) as { components: { id: string }[] };
  const votes = Object.fromEntries(participation.components.map((c, i) => [c.id, ratings[i] ?? 'healthy']));
  const submit = await context.request.post(`/api/health-checks/${healthCheckId}/submit`, {
    data: { votes, comments: {}, last_component_index: participation.components.length - 1 },
  });
  expect(submit.status(), await submit.text()).toBe(200);
  await page.close();
  return { email, password };
}

/** Launches a health check through the API as the admin signed in on `page`. */
export async function launchThroughApi(
  page: Page,
  options: { workspaceId: string; title: string; description?: string; minResponses?: number },
) {
  const template = (await (await page.request.get('/api/templates/new')).json()) as {
    template: { id: string; components: { id: string }[] };
  };
  const response = await page.request.post('/api/health-checks', {
    data: {
      workspaceId: options.workspaceId,
      templateId: template.template.id,
      title: options.title,
      description: options.description ?? 'Launched by a browser test',
      settings: {
        minResponses: options.minResponses ?? 1,
        allowAnonymous: true,
        enableComments: true,
        votesPerPerson: 5,
        showResultsAfterVoting: true,
      },
      enabledComponentIds: template.template.components.slice(0, 3).map((c) => c.id),
      teamEmails: [],
      launchKey: randomBytes(8).toString('hex'),
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: string; joinUrl: string };
}

/**
 * An active member of the admin's workspace: invited through the API as the admin signed in on `page`, and
 * accepted from the invitation e-mail really sent, as a new account (signed in only in a throwaway context).
 */
export async function addActiveMember(
  page: Page,
  mailDir: string,
  options: { workspaceId: string; fullName: string; email?: string },
) {
  const email = options.email ?? uniqueEmail(options.fullName.split(' ')[0]!.toLowerCase());
  const password = 'e2e-password-789';
  const invite = await page.request.post(`/api/workspaces/${options.workspaceId}/invitations`, {
    data: { email, role: 'Engineer' },
  });
  expect(invite.status(), await invite.text()).toBe(201);
  const mail = await waitForMail(mailDir, email, /invited to join/);
  const token = /\/invite\/([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
  if (!token) throw new Error('no invitation link in the e-mail');
  const context = await page
    .context()
    .browser()!
    .newContext({ baseURL: new URL(page.url()).origin });
  const accepted = await context.request.post(`/api/invitations/${token}/accept-signup`, {
    data: { fullName: options.fullName, password, confirmPassword: password },
  });
  expect(accepted.status(), await accepted.text()).toBe(200);
  await context.close();
  return { email, password, fullName: options.fullName };
}
