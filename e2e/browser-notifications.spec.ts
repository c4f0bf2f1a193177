import type { BrowserContext, Page } from '@playwright/test';
import { completeParticipation, launchThroughApi, signUpAdmin } from './support/accounts';
import { expect, expectAccessible, test } from './support/fixtures';

type Shown = { title: string; body: string; tag: string };
type SpiedWindow = Window & { __browserNotifications: Notification[] };

/**
 * Every page of `context` records each browser Notification it constructs (in the page's
 * `__browserNotifications`) and still constructs the real one, so Chromium shows it as usual.
 */
async function recordNotifications(context: BrowserContext) {
  await context.addInitScript(() => {
    const Real = window.Notification;
    const shown: Notification[] = [];
    Object.defineProperty(window, '__browserNotifications', { value: shown });
    window.Notification = class extends Real {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        shown.push(this);
      }
    };
  });
}

const shownIn = (page: Page) =>
  page.evaluate(() =>
    (window as unknown as SpiedWindow).__browserNotifications.map((n): Shown => ({
      title: n.title,
      body: n.body,
      tag: n.tag,
    })),
  );

/** Opens the admin dashboard in `page` and waits until its bell has the notifications of before. */
async function openDashboard(page: Page) {
  const loaded = page.waitForResponse(
    (response) => response.url().endsWith('/api/notifications') && response.ok(),
  );
  await page.goto('/admin/dashboard');
  await (await loaded).finished();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
}

const bellOf = (page: Page) => page.getByRole('button', { name: /^Notifications/ }).filter({ visible: true });

test.describe('browser notifications', () => {
  test('a new response shows one browser notification across two tabs; clicking it opens the check', async ({
    page,
    browser,
    mailDir,
  }) => {
    test.setTimeout(120_000);
    const context = page.context();
    await context.grantPermissions(['notifications']);
    await recordNotifications(context);
    const admin = await signUpAdmin(page, mailDir, { companyName: 'Notice Co' });
    // Completion milestones off, so the one response below notifies 'new-response' only (a team of one that
    // completes is also a milestone, issue 14).
    const { preferences } = (await (
      await page.request.get('/api/account/notification-preferences')
    ).json()) as {
      preferences: { pushNotifications: Record<string, boolean> };
    };
    preferences.pushNotifications.completionMilestones = false;
    const saved = await page.request.put('/api/account/notification-preferences', { data: preferences });
    expect(saved.ok(), await saved.text()).toBe(true);
    const check = await launchThroughApi(page, {
      workspaceId: admin.workspaceId,
      title: 'Browser Notice Check',
      minResponses: 2,
    });

    // Two tabs, each with the bell (the admin layout mounts two bells per tab: top bar and sidebar).
    await openDashboard(page);
    const second = await context.newPage();
    await openDashboard(second);
    expect(await shownIn(page)).toEqual([]);
    expect(await shownIn(second)).toEqual([]);

    // Someone else's action: a participant submits, which notifies the check's creator.
    const participant = await browser.newContext();
    await completeParticipation(participant, mailDir, check.id, 'Nia Notice');
    await participant.close();

    const message = 'A new response was submitted to "Browser Notice Check" (1 of 1 completed)';
    await expect(bellOf(second)).toHaveAccessibleName(/1 unread/, { timeout: 15_000 });
    await expect(bellOf(page)).toHaveAccessibleName(/1 unread/, { timeout: 15_000 });
    await expect
      .poll(async () => [...(await shownIn(page)), ...(await shownIn(second))], { timeout: 15_000 })
      .toHaveLength(1);
    // Both tabs have refetched the list; still exactly one notification between them.
    await second.waitForTimeout(1_000);
    const inFirst = await shownIn(page);
    const inSecond = await shownIn(second);
    const all = [...inFirst, ...inSecond];
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ title: 'Pulsecheck', body: message });
    expect(all[0]!.tag).toMatch(/^pulsecheck-notification-/);

    // Clicking it opens the notification's link in the tab that showed it and marks it read.
    const shower = inFirst.length === 1 ? page : second;
    await shower.evaluate(() =>
      (window as unknown as SpiedWindow).__browserNotifications[0]!.dispatchEvent(new Event('click')),
    );
    await expect(shower).toHaveURL(new RegExp(`/admin/health-check/${check.id}/manage$`));
    await expect(bellOf(shower)).toHaveAccessibleName('Notifications', { timeout: 15_000 });
    const other = shower === page ? second : page;
    await expect(bellOf(other)).toHaveAccessibleName('Notifications', { timeout: 15_000 });

    // The tab that showed it closes: the other tab shows what comes next, each once.
    await shower.close();
    const late = await browser.newContext();
    await completeParticipation(late, mailDir, check.id, 'Lee Late');
    await late.close();
    await expect.poll(() => shownIn(other), { timeout: 15_000 }).toHaveLength(1);
    await other.waitForTimeout(1_000);
    expect((await shownIn(other)).map((n) => n.body)).toEqual([
      'A new response was submitted to "Browser Notice Check" (2 of 2 completed)',
    ]);
  });

  test('with the push setting off nothing is shown; the Push card says what the browser allows', async ({
    page,
    browser,
    mailDir,
  }) => {
    test.setTimeout(150_000);
    const context = page.context();
    await context.grantPermissions(['notifications']);
    await recordNotifications(context);
    const admin = await signUpAdmin(page, mailDir, { companyName: 'Quiet Notice Co' });

    await page.goto('/admin/account-settings/notifications');
    const push = page.getByRole('region', { name: 'Push' });
    await expect(push.getByRole('status')).toHaveText(
      'Browser notifications are on in this browser: while Pulsecheck is open in a tab, everything that reaches your bell also appears as a browser notification.',
    );
    await expect(push.getByRole('button', { name: 'Allow browser notifications' })).toHaveCount(0);
    await push.getByRole('switch', { name: 'New Responses' }).click();
    await expect(push.getByRole('switch', { name: 'Completion Milestones' })).toBeChecked();
    await page.getByRole('button', { name: 'Save Changes' }).first().click();
    await expect(page.getByText('Notification settings saved successfully')).toBeVisible();

    const check = await launchThroughApi(page, {
      workspaceId: admin.workspaceId,
      title: 'Quiet Notice Check',
      minResponses: 2,
    });
    await openDashboard(page);
    const second = await context.newPage();
    await openDashboard(second);

    // Two responses: each would be a 'new-response' (switched off); the first is half of a team of one (below the
    // minimum, so not 'all'), the second completes the team at the minimum: two milestones (Completion
    // Milestones, still on: issue 14), which proves delivery.
    for (const name of ['Quinn Quiet', 'Rae Quiet']) {
      const participant = await browser.newContext();
      await completeParticipation(participant, mailDir, check.id, name);
      await participant.close();
    }
    await expect
      .poll(async () => [...(await shownIn(page)), ...(await shownIn(second))], { timeout: 15_000 })
      .toHaveLength(2);
    await second.waitForTimeout(1_000);
    const all = [...(await shownIn(page)), ...(await shownIn(second))];
    expect(all.map((n) => n.body).sort()).toEqual([
      'All participants have completed "Quiet Notice Check" (2 of 2)',
      'At least half of the participants have completed "Quiet Notice Check" (1 of 1)',
    ]);
    await bellOf(page).click();
    const panel = page.getByRole('region', { name: 'Your notifications' });
    await expect(panel).toContainText('All participants have completed "Quiet Notice Check"');
    await expect(panel).not.toContainText('A new response was submitted');
    await second.close();

    // A browser where Pulsecheck may not notify yet: the card offers the browser's prompt and says the answer.
    const fresh = await browser.newContext();
    const freshPage = await fresh.newPage();
    await freshPage.goto('/login');
    await freshPage.getByLabel('Email').fill(admin.email);
    await freshPage.getByLabel('Password').fill(admin.password);
    await freshPage.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(freshPage).toHaveURL(/\/admin\/dashboard$/);
    await freshPage.goto('/admin/account-settings/notifications');
    const freshPush = freshPage.getByRole('region', { name: 'Push' });
    await expect(freshPush.getByRole('status')).toHaveText(
      'This browser does not show Pulsecheck notifications yet; you see them on the bell.',
    );
    await expectAccessible(freshPage);
    // Headless Chromium answers the prompt with a refusal, as a person who blocks notifications does.
    await freshPush.getByRole('button', { name: 'Allow browser notifications' }).click();
    await expect(freshPush.getByRole('status')).toHaveText(
      "Browser notifications are blocked for Pulsecheck in this browser, so you see notifications on the bell only. To get them, allow notifications for this site in the browser's site settings.",
    );
    await expect(freshPush.getByRole('button', { name: 'Allow browser notifications' })).toHaveCount(0);
    await fresh.close();
  });
});
