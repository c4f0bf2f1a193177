import { startFakeJira, type FakeJira } from '../apps/server/src/test/jira-server';
import { signUpAdmin } from './support/accounts';
import { expect, expectAccessible, test } from './support/fixtures';
import { checkWithResults } from './support/trackers';

/**
 * Trackers (issue 36): an admin connects Jira Cloud (account e-mail and API token) in Workspace Settings →
 * Integrations — a stand-in Jira on the loopback (apps/server/src/test/jira-server.ts, strict by hand; the app server
 * has WEBHOOKS_ALLOW_LOOPBACK=true) — then creates an issue in a project from an action item on the results screen
 * and sees its key, state and assignee; by keyboard, at 360 px, axe clean.
 */
test.describe('trackers: Jira', () => {
  let jira: FakeJira;
  test.beforeAll(async () => {
    jira = await startFakeJira('cloud');
    jira.users.push({
      accountId: 'acc-bot',
      name: 'bot',
      displayName: 'Pulse Bot',
      email: 'bot@acme.example',
      emailVisible: true,
    });
    jira.tokens.set('ATATT-e2e-good', 'acc-bot');
    jira.projects.push({ key: 'WEB', name: 'Website' });
  });
  test.afterAll(async () => {
    expect(jira.violations).toEqual([]);
    await jira.close();
  });

  test('an admin connects Jira Cloud and creates an issue from an action item', async ({
    page,
    browser,
    mailDir,
  }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width: 360, height: 800 });
    const admin = await signUpAdmin(page, mailDir, { companyName: 'Jira Co' });

    await page.goto('/admin/workspace-settings/integrations');
    await expect(page.getByText('No tracker is connected to this workspace.')).toBeVisible();
    await page.getByLabel('Tracker', { exact: true }).selectOption('jira');
    await expect(page.getByLabel('Account e-mail')).toBeVisible();
    await expectAccessible(page);

    // A token with another account's e-mail is refused on save, next to the token.
    await page.getByLabel('Jira address').fill(jira.origin);
    await page.getByLabel('Account e-mail').fill('someone@acme.example');
    await page.getByLabel('Token', { exact: true }).fill('ATATT-e2e-good');
    await page.getByRole('button', { name: 'Connect' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Jira refused these credentials' })).toBeVisible();
    await expectAccessible(page);

    // By keyboard: the right e-mail, then Enter in the token field.
    await page.getByLabel('Account e-mail').fill('bot@acme.example');
    await page.getByLabel('Token', { exact: true }).fill('ATATT-e2e-good');
    await page.getByLabel('Token', { exact: true }).press('Enter');
    const host = new URL(jira.origin).host;
    await expect(
      page.getByRole('status').filter({ hasText: `Connected as Pulse Bot to ${host}` }),
    ).toBeVisible();
    await expect(page.getByTestId('tracker-webhook-secret')).toHaveText(/^[A-Za-z0-9_-]{40,}$/);
    await expect(page.getByTestId('tracker-connection')).toContainText('System → WebHooks');
    await expectAccessible(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    // An action item on the results screen becomes a Jira issue in the chosen project.
    const checkId = await checkWithResults(page, browser, {
      mailDir,
      workspaceId: admin.workspaceId,
      title: 'Jira check',
    });
    const created = await page.request.post(`/api/health-checks/${checkId}/action-items`, {
      data: { description: 'Shorter standups', ownerId: admin.userId, dueDate: '2027-01-15' },
    });
    expect(created.status()).toBe(201);
    await page.goto(`/admin/health-check/${checkId}/results`);
    const row = page.locator('#action-items').getByTestId('action-item');
    await expect(row).toContainText('Shorter standups');
    await row.getByRole('button', { name: 'Jira issue for action item: Shorter standups' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Jira issue' });
    await expect(dialog.getByLabel('Project')).toBeVisible();
    await expect(dialog.getByLabel('Issue URL or key')).toBeVisible();
    await expectAccessible(page);
    await dialog.getByLabel('Project').selectOption('WEB');
    await dialog.getByRole('button', { name: 'Create issue in Jira' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(row.getByRole('link', { name: 'WEB-1' })).toBeVisible({ timeout: 30_000 });
    await expect(row.getByTestId('tracker-issue')).toContainText('Open');
    expect(jira.issue('WEB-1').summary).toBe('Shorter standups');
    expect(jira.issue('WEB-1').duedate).toBe('2027-01-15');
    await expectAccessible(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });
});
