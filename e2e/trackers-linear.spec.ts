import { startFakeLinear, type FakeLinear } from '../apps/server/src/test/linear-server';
import { signUpAdmin } from './support/accounts';
import { expect, expectAccessible, test } from './support/fixtures';
import { checkWithResults } from './support/trackers';

/**
 * Linear (issue 36): an admin connects Linear with an API key in Workspace Settings → Integrations (a stand-in
 * Linear on the loopback that validates every GraphQL document against Linear's schema; the app server has
 * WEBHOOKS_ALLOW_LOOPBACK=true), pastes the webhook's signing secret Linear made, then creates an issue in a team from
 * an action item and sees its identifier, state and assignee; by keyboard, at 360 px, axe clean.
 */
test.describe('trackers: Linear', () => {
  let linear: FakeLinear;
  test.beforeAll(async () => {
    linear = await startFakeLinear();
    linear.users.push({
      id: 'user-ada',
      name: 'Ada Lovelace',
      email: 'nobody@example.com',
      active: true,
      teams: ['ENG'],
    });
    linear.apiKeys.set('lin_api_e2e_good', 'user-ada');
    linear.teams.set('ENG', 'Engineering');
  });
  test.afterAll(async () => {
    expect(linear.violations).toEqual([]);
    await linear.close();
  });

  test('an admin connects Linear and creates an issue from an action item', async ({
    page,
    browser,
    mailDir,
  }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width: 360, height: 800 });
    const admin = await signUpAdmin(page, mailDir, { companyName: 'Linear Co' });
    // The owner of the action item is found in Linear by e-mail.
    linear.users[0]!.email = admin.email;

    await page.goto('/admin/workspace-settings/integrations');
    await expect(page.getByText('No tracker is connected to this workspace.')).toBeVisible();
    await page.getByLabel('Tracker', { exact: true }).selectOption('linear');
    await expect(page.getByText('Leave empty: Linear is at linear.app.')).toBeVisible();
    await expectAccessible(page);

    // A wrong key is refused on save, next to the field.
    await page.getByLabel('Server address (optional)').fill(linear.origin);
    await page.getByLabel('Token', { exact: true }).fill('lin_api_wrong');
    await page.getByRole('button', { name: 'Connect' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Linear refused this API key' })).toBeVisible();

    // By keyboard: the right key, then Enter.
    await page.getByLabel('Token', { exact: true }).fill('lin_api_e2e_good');
    await page.getByLabel('Token', { exact: true }).press('Enter');
    const host = new URL(linear.origin).host;
    await expect(
      page.getByRole('status').filter({ hasText: `Connected as Ada Lovelace (Acme) to ${host}` }),
    ).toBeVisible();
    // Linear makes the signing secret: Pulsecheck shows none, and asks for Linear's.
    await expect(page.getByTestId('tracker-webhook-secret')).toHaveCount(0);
    await expect(page.getByTestId('tracker-signing-secret-state')).toHaveText(
      'No signing secret saved yet: webhooks are refused until it is.',
    );
    await expectAccessible(page);
    await page.getByLabel('Signing secret', { exact: true }).fill('lin_wh_e2e_signing_secret');
    await page.getByLabel('Signing secret', { exact: true }).press('Enter');
    await expect(page.getByTestId('tracker-signing-secret-state')).toHaveText(
      'Signing secret saved: webhooks are checked with it.',
    );
    await expect(page.getByLabel('Signing secret', { exact: true })).toHaveValue('');
    await expectAccessible(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    // An action item on the results screen becomes a Linear issue in a team.
    const checkId = await checkWithResults(page, browser, {
      mailDir,
      workspaceId: admin.workspaceId,
      title: 'Linear check',
    });
    const created = await page.request.post(`/api/health-checks/${checkId}/action-items`, {
      data: { description: 'Shorter standups', ownerId: admin.userId, dueDate: '2027-03-01' },
    });
    expect(created.status()).toBe(201);
    await page.goto(`/admin/health-check/${checkId}/results`);
    const row = page.locator('#action-items').getByTestId('action-item');
    await expect(row).toContainText('Shorter standups');
    await row.getByRole('button', { name: 'Linear issue for action item: Shorter standups' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Linear issue' });
    await expect(dialog.getByLabel('Team')).toBeVisible();
    await expect(dialog.getByLabel('Issue URL')).toHaveAttribute('placeholder', /ENG-12/);
    await expectAccessible(page);
    await dialog.getByLabel('Team').selectOption('ENG');
    await dialog.getByRole('button', { name: 'Create issue in Linear' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(row.getByRole('link', { name: 'ENG-1' })).toBeVisible({ timeout: 30_000 });
    await expect(row.getByTestId('tracker-issue')).toContainText('Open');
    await expect(row.getByTestId('tracker-issue')).toContainText('Assignee: Ada Lovelace');
    const issue = linear.find('ENG-1');
    expect(issue.title).toBe('Shorter standups');
    expect(issue.dueDate).toBe('2027-03-01');
    await expectAccessible(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });
});
