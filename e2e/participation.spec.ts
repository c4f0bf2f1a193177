import { randomBytes } from 'node:crypto';
import type { Browser, Page } from '@playwright/test';
import { expect, expectAccessible, test } from './support/fixtures';
import { waitForMail } from './support/mail-capture';

const uniqueEmail = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}@example.com`;
const linkIn = (text: string) => {
  const link = /https?:\/\/\S+/.exec(text)?.[0];
  if (!link) throw new Error('no link in the e-mail');
  return link;
};

/** An admin with an organisation, signed in on `page` (sign-up through the API, verification from the e-mail). */
async function signUpAdmin(page: Page, mailDir: string) {
  const email = uniqueEmail('admin');
  const password = 'e2e-password-123';
  const response = await page.request.post('/api/signup', {
    data: {
      fullName: 'Ada Admin',
      email,
      password,
      confirmPassword: password,
      companyName: 'Participation Co',
      companySize: '11-50',
      role: 'Head of People',
      acceptTerms: true,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  const mail = await waitForMail(mailDir, email, /Verify your email/);
  await page.goto(linkIn(mail.text));
  // The confirmation screen may already have run the set-up; a second call answers 409.
  expect([200, 409]).toContain((await page.request.post('/api/onboarding/setup')).status());
  await expect
    .poll(async () => {
      const me = await page.request.get('/api/me');
      return ((await me.json()) as { user?: { setupStatus?: string } }).user?.setupStatus;
    })
    .toBe('completed');
  const me = (await (await page.request.get('/api/me')).json()) as { user: { activeWorkspaceId: string } };
  return { email, workspaceId: me.user.activeWorkspaceId };
}

/** Launches a check through the admin's launch API: the first `count` catalogue components. */
async function launch(page: Page, workspaceId: string, title: string, count = 3) {
  const template = (await (await page.request.get('/api/templates/new')).json()) as {
    template: { id: string; components: { id: string; title: string }[] };
  };
  const components = template.template.components.slice(0, count);
  const response = await page.request.post('/api/health-checks', {
    data: {
      workspaceId,
      templateId: template.template.id,
      title,
      description: 'How are we doing as a team?',
      settings: {
        minResponses: 3,
        allowAnonymous: true,
        enableComments: true,
        votesPerPerson: 5,
        showResultsAfterVoting: true,
      },
      enabledComponentIds: components.map((c) => c.id),
      teamEmails: [],
      launchKey: randomBytes(8).toString('hex'),
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  const launched = (await response.json()) as { id: string; joinUrl: string };
  return { ...launched, titles: components.map((c) => c.title) };
}

/** Opens the join link signed out, signs up on /signup/{id} and follows the e-mailed verification link. */
async function joinBySignup(browser: Browser, mailDir: string, joinUrl: string, id: string, name: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(joinUrl);
  await expect(page).toHaveURL(new RegExp(`/signup/${id}$`));
  await expect(page.getByRole('heading', { name: 'Join Health Check' })).toBeVisible();
  const email = uniqueEmail(name.split(' ')[0]?.toLowerCase() ?? 'p');
  await page.getByLabel('Full name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('e2e-password-456');
  await page.getByRole('button', { name: 'Join Health Check' }).click();
  await expect(
    page.getByText(/Once verified, you will be automatically added to the health check/),
  ).toBeVisible();
  const mail = await waitForMail(mailDir, email, /Verify your email/);
  await page.goto(linkIn(mail.text));
  await expect(page).toHaveURL(new RegExp(`/health-check/${id}/voting$`));
  return { context, page, email };
}

const shown = (page: Page, text: string) => page.getByText(text, { exact: true }).filter({ visible: true });
/** The notification bell of the participant layout (its name carries the unread count). */
const bellOf = (page: Page) =>
  page.getByRole('navigation', { name: 'Account' }).getByRole('button', { name: /^Notifications/ });
const rating = (page: Page, name: string) => page.getByRole('radio', { name: new RegExp(`^${name}`) });

test.describe('participation', () => {
  test('three participants join by link, rate every component, survive a reload and complete', async ({
    page,
    browser,
    mailDir,
  }) => {
    test.setTimeout(300_000);
    const admin = await signUpAdmin(page, mailDir);
    const check = await launch(page, admin.workspaceId, 'Sprint Team Health');
    const [first, second, third] = check.titles as [string, string, string];

    // Signed out, the sign-up screen shows the title of the check behind the link.
    const one = await joinBySignup(browser, mailDir, check.joinUrl, check.id, 'Olu One');
    const p1 = one.page;
    await expect(p1.getByRole('heading', { name: 'Sprint Team Health' })).toBeVisible();
    await expect(p1.getByRole('heading', { name: first })).toBeVisible();
    await expect(shown(p1, 'Step 1 of 3')).toBeVisible();
    await expect(p1.getByTestId('team-progress-count')).toHaveText('0 of 1 completed');
    // The participant screens carry the notification bell (issue 14).
    await expect(bellOf(p1)).toBeVisible();
    await expectAccessible(p1);

    // Next needs a rating first.
    const next = p1.getByRole('button', { name: 'Next' });
    await expect(next).toHaveAttribute('aria-disabled', 'true');
    await next.click({ force: true });
    await expect(p1.getByText('Please select a rating to continue')).toBeVisible();
    await expect(p1.getByText('Please select a rating to continue')).toBeHidden({ timeout: 5000 });
    await rating(p1, 'Healthy').click();
    await expect(rating(p1, 'Healthy')).toHaveAttribute('aria-checked', 'true');
    await expect(next).not.toHaveAttribute('aria-disabled', 'true');
    await p1.getByRole('button', { name: 'Add Comment' }).click();
    await p1.getByLabel('Comment (optional)').fill('We decide fast and write it down.');
    await p1.getByRole('button', { name: 'Next' }).click();
    await expect(p1.getByRole('heading', { name: second })).toBeVisible();
    // Keyboard: 3 chooses Fire Warning.
    await p1.keyboard.press('3');
    await expect(rating(p1, 'Fire Warning')).toHaveAttribute('aria-checked', 'true');
    await p1.keyboard.press('ArrowRight');
    await expect(p1.getByRole('heading', { name: third })).toBeVisible();
    await expect(shown(p1, 'Saved')).toBeVisible({ timeout: 10_000 });
    await expect(p1.getByText('Progress saved')).toBeVisible();

    // The connection drops: the change is kept, 'Save failed' shows, and it is saved once back online.
    await one.context.setOffline(true);
    await rating(p1, "I Don't Know").click();
    await expect(shown(p1, 'Save failed')).toBeVisible({ timeout: 10_000 });
    await expect(p1.getByText('Failed to save progress')).toBeVisible();
    await one.context.setOffline(false);
    await expect(shown(p1, 'Saved')).toBeVisible({ timeout: 15_000 });

    // A reload restores every answer, the comment and the step.
    await p1.reload();
    await expect(p1.getByText('Restored your previous progress!')).toBeVisible();
    await expect(p1.getByRole('heading', { name: third })).toBeVisible();
    await expect(rating(p1, "I Don't Know")).toHaveAttribute('aria-checked', 'true');
    await p1.getByRole('button', { name: 'Previous' }).click();
    await p1.getByRole('button', { name: 'Previous' }).click();
    await expect(rating(p1, 'Healthy')).toHaveAttribute('aria-checked', 'true');
    await expect(p1.getByLabel('Comment (optional)')).toHaveValue('We decide fast and write it down.');

    // Two teammates join through the same link; the first sees the team grow live.
    const two = await joinBySignup(browser, mailDir, check.joinUrl, check.id, 'Tam Two');
    const three = await joinBySignup(browser, mailDir, check.joinUrl, check.id, 'Tia Three');
    await expect(p1.getByTestId('team-progress-count')).toHaveText('0 of 3 completed', { timeout: 15_000 });

    // First participant submits.
    await p1.getByRole('button', { name: 'Next' }).click();
    await p1.getByRole('button', { name: 'Next' }).click();
    await p1.getByRole('button', { name: 'Submit Responses' }).click();
    await expect(p1).toHaveURL(new RegExp(`/health-check/${check.id}/complete$`));
    await expect(p1.getByRole('heading', { name: 'Phase 1 Complete!' })).toBeVisible();
    await expect(p1.getByText('Phase 2 Problem Solving')).toBeVisible();
    await expect(p1.getByRole('button', { name: 'Share Ideas' })).toBeDisabled();
    await expect(p1.getByText('Notifications enabled')).toBeVisible();
    await expect(p1.getByRole('button', { name: 'View Results' })).toBeDisabled();
    await expect(p1.getByTestId('team-progress-count')).toHaveText('1 of 3 completed');
    await expect(bellOf(p1)).toBeVisible();
    await expectAccessible(p1);

    // Second participant rates with the keyboard only and submits.
    const p2 = two.page;
    await expect(p2.getByRole('heading', { name: first })).toBeVisible();
    for (const key of ['1', 'ArrowRight', '2', 'ArrowRight', '4']) await p2.keyboard.press(key);
    await p2.getByRole('button', { name: 'Submit Responses' }).click();
    await expect(p2.getByRole('heading', { name: 'Phase 1 Complete!' })).toBeVisible();

    // Third participant on a phone: the bottom bar shows step and percentage, nothing overflows.
    const p3 = three.page;
    await p3.setViewportSize({ width: 360, height: 740 });
    await p3.reload();
    await expect(p3.getByRole('heading', { name: first })).toBeVisible();
    await expect(shown(p3, 'Step 1 of 3')).toBeVisible();
    await expect(shown(p3, '0%')).toBeVisible();
    expect(
      await p3.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    await expectAccessible(p3);
    for (const name of ['Needs Improvement', 'Healthy', 'Healthy']) {
      await rating(p3, name).click();
      const next = p3.getByRole('button', { name: 'Next' });
      if (await next.isVisible()) await next.click();
    }
    await expect(shown(p3, '100%')).toBeVisible();
    await p3.getByRole('button', { name: 'Submit Responses' }).click();
    await expect(p3.getByRole('heading', { name: 'Phase 1 Complete!' })).toBeVisible();
    await expect(p3.getByTestId('team-progress-count')).toHaveText('3 of 3 completed');
    // Everyone completed, but results open only when collection ends (PRODUCT-DECISIONS 3).
    await expect(p3.getByRole('button', { name: 'View Results' })).toBeDisabled();
    await expect(p3.getByText(/^Results open when collection ends/)).toBeVisible();
    expect(
      await p3.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    await expectAccessible(p3);

    // Everyone is counted once: the admin's view of the participants says 3 of 3.
    const participants = (await (
      await page.request.get(`/api/health-checks/${check.id}/participants`)
    ).json()) as {
      participants: { status: string }[];
    };
    expect(participants.participants.map((p) => p.status)).toEqual(['completed', 'completed', 'completed']);
    await page.goto(`/admin/health-check/${check.id}/manage`);
    await expect(page.getByTestId('participants-card')).toHaveText('3');
    await expect(page.getByTestId('completion-card')).toHaveText('100%');
    await expect(page.getByText('All participants have completed')).toBeVisible();
    // The creator is e-mailed once everyone has completed.
    await waitForMail(mailDir, admin.email, /All participants have completed/);

    // A completed participant who opens the link again lands on the completion screen; /dashboard lists it.
    await p2.goto(check.joinUrl);
    await expect(p2.getByRole('heading', { name: 'Phase 1 Complete!' })).toBeVisible();
    await p2.getByRole('link', { name: 'Return to Dashboard' }).click();
    await expect(p2.getByRole('heading', { name: 'My Health Checks' })).toBeVisible();
    await expect(p2.getByRole('heading', { name: 'Sprint Team Health' })).toBeVisible();
    await expect(p2.getByText('Completed', { exact: true })).toBeVisible();
    await expect(bellOf(p2)).toBeVisible();
    await expectAccessible(p2);

    // Voting starts: collection has ended, and the completion screen offers the results (it updates live).
    await page.getByRole('button', { name: 'Start Voting Phase' }).click();
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByText('Successfully moved to vote phase')).toBeVisible();
    await expect(p3.getByRole('link', { name: 'View Results' })).toBeVisible({ timeout: 15_000 });

    // Everyone hears of it: on the bell (live, on the phone too) and by e-mail (issue 14).
    const notice = 'Voting has started for "Sprint Team Health", and its results are ready';
    await expect(bellOf(p3)).toHaveAccessibleName(/1 unread/, { timeout: 15_000 });
    await bellOf(p3).click();
    const panel = p3.getByRole('region', { name: 'Your notifications' });
    await expect(panel.getByText(notice)).toBeVisible();
    expect(
      await p3.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    await expectAccessible(p3);
    await panel.getByText(notice).click();
    await expect(p3).toHaveURL(new RegExp(`/health-check/${check.id}/vote$`));
    await expect(bellOf(p3)).toHaveAccessibleName('Notifications');
    await expect(bellOf(p2)).toHaveAccessibleName(/1 unread/, { timeout: 15_000 });
    const mail = await waitForMail(mailDir, three.email, /^Voting has started for "Sprint Team Health"/);
    expect(mail.text).toContain(`/health-check/${check.id}/vote`);
    const unsubscribe = /Unsubscribe: (http\S+\/unsubscribe\?token=\S+)/.exec(mail.text)?.[1];
    expect(unsubscribe).toBeTruthy();
    // The link works without signing in and says what it switched off.
    const outside = await browser.newContext();
    const outsidePage = await outside.newPage();
    await outsidePage.goto(unsubscribe!);
    await expect(
      outsidePage.getByText('You will no longer receive phase change and results ready emails.'),
    ).toBeVisible();
    await expectAccessible(outsidePage);
    await outside.close();

    // Participants reach their notification settings: the phase and results e-mails are on, and can go off.
    await p2
      .getByRole('navigation', { name: 'Account' })
      .getByRole('link', { name: /Notification settings/ })
      .click();
    await expect(p2).toHaveURL(/\/account-settings\/notifications$/);
    const email = p2.getByRole('region', { name: 'Email' });
    await expect(email.getByRole('switch', { name: 'Phase Changes' })).toBeChecked();
    await expect(email.getByRole('switch', { name: 'Results Ready' })).toBeChecked();
    await expect(email.getByRole('switch', { name: 'Weekly Digest' })).toHaveCount(0);
    await email.getByRole('switch', { name: 'Phase Changes' }).click();
    await p2.getByRole('button', { name: 'Save Changes' }).first().click();
    await expect(p2.getByText('Notification settings saved successfully')).toBeVisible();
    await expectAccessible(p2);

    for (const person of [one, two, three]) await person.context.close();
  });

  test('a join whose verification link a mail scanner used completes when the person signs in (issue 32 item 2)', async ({
    page,
    browser,
    mailDir,
  }) => {
    const admin = await signUpAdmin(page, mailDir);
    const check = await launch(page, admin.workspaceId, 'Scanned join', 2);

    const context = await browser.newContext();
    const person = await context.newPage();
    await person.goto(check.joinUrl);
    await expect(person).toHaveURL(new RegExp(`/signup/${check.id}$`));
    const email = uniqueEmail('scanned');
    const password = 'e2e-password-789';
    await person.getByLabel('Full name').fill('Sam Scanned');
    await person.getByLabel('Email').fill(email);
    await person.getByLabel('Password').fill(password);
    await person.getByRole('button', { name: 'Join Health Check' }).click();
    await expect(person.getByText(/Once verified, you will be automatically added/)).toBeVisible();

    // A mail scanner fetches the link (no script runs): the address is verified, the person joined nothing yet.
    const mail = await waitForMail(mailDir, email, /Verify your email/);
    const scanner = await browser.newContext({ javaScriptEnabled: false });
    expect((await scanner.request.get(linkIn(mail.text))).ok()).toBe(true);
    await scanner.close();

    // Back on their own device, the person signs in and lands in the check, joined.
    await person.goto('/login');
    await person.getByLabel('Email').fill(email);
    await person.getByLabel('Password').fill(password);
    await person.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(person).toHaveURL(new RegExp(`/health-check/${check.id}`));
    await expect(person.getByRole('heading', { name: 'Scanned join' })).toBeVisible();
    await expect(person.getByTestId('team-progress-count')).toHaveText('0 of 1 completed');
    // A bookmark to the dashboard later shows the check among theirs.
    await person.goto('/dashboard');
    await expect(person.getByText('Scanned join').first()).toBeVisible();
    await context.close();
  });

  test('refuses outsiders and unknown links with the right screens; preview saves nothing', async ({
    page,
    browser,
    mailDir,
  }) => {
    const admin = await signUpAdmin(page, mailDir);
    const check = await launch(page, admin.workspaceId, 'Guarded check', 2);

    // The admin previews without registering.
    await page.goto(`/health-check/${check.id}/voting?preview=1`);
    await expect(page.getByText(/Preview mode/)).toBeVisible();
    await rating(page, 'Healthy').click();
    await page.getByRole('button', { name: 'Next' }).click();
    await rating(page, 'Healthy').click();
    await page.getByRole('button', { name: 'Submit Responses' }).click();
    await expect(page.getByText('Preview: nothing is saved')).toBeVisible();
    const participants = (await (
      await page.request.get(`/api/health-checks/${check.id}/participants`)
    ).json()) as {
      participants: unknown[];
    };
    expect(participants.participants).toEqual([]);

    // Someone signed in elsewhere (another organisation's admin) is told they are not a member.
    const outsider = await browser.newContext();
    const outsiderPage = await outsider.newPage();
    await signUpAdmin(outsiderPage, mailDir);
    await outsiderPage.goto(`/health-check/${check.id}/voting`);
    await expect(outsiderPage.getByText('You must be a workspace member to participate')).toBeVisible();
    await expect(outsiderPage).toHaveURL(/\/dashboard$/);

    // Unknown links.
    await outsiderPage.goto(`/join/${crypto.randomUUID()}`);
    await expect(outsiderPage).toHaveURL(/\/invalid-link$/);
    await outsider.close();
    const visitor = await browser.newContext();
    const visitorPage = await visitor.newPage();
    await visitorPage.goto(`/signup/${crypto.randomUUID()}`);
    await expect(visitorPage).toHaveURL(/\/error$/);
    await expect(visitorPage.getByText('Health check not found')).toBeVisible();
    // A signed-out visitor of an unknown join link lands on /invalid-link too, not on the sign-up or /error.
    await visitorPage.goto(`/join/${crypto.randomUUID()}`);
    await expect(visitorPage).toHaveURL(/\/invalid-link$/);
    await expect(visitorPage.getByRole('heading', { name: 'Health check not found' })).toBeVisible();
    await visitor.close();
  });
});
