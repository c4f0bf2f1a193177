import { startFakeGithub, type FakeGithub } from '../apps/server/src/test/github-server';
import { startFakeGitlab, type FakeGitlab } from '../apps/server/src/test/gitlab-server';
import { signUpAdmin } from './support/accounts';
import { expect, expectAccessible, test } from './support/fixtures';
import { checkWithResults } from './support/trackers';

/**
 * Trackers (issue 36): an admin connects GitHub in Workspace Settings → Integrations (a stand-in GitHub Enterprise
 * Server on the loopback that checks every request against GitHub's OpenAPI description; the app server has
 * WEBHOOKS_ALLOW_LOOPBACK=true), then creates an issue from an action item on the results screen and sees its key,
 * state and assignee; by keyboard, at 360 px, axe clean.
 */
test.describe('trackers', () => {
  let github: FakeGithub;
  test.beforeAll(async () => {
    github = await startFakeGithub();
    github.tokens.set('github_pat_e2e_good', 'octo-admin');
    github.repositories.push('acme/web');
  });
  test.afterAll(async () => {
    expect(github.violations).toEqual([]);
    await github.close();
  });

  test('an admin connects GitHub and creates an issue from an action item', async ({
    page,
    browser,
    mailDir,
  }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width: 360, height: 800 });
    const admin = await signUpAdmin(page, mailDir, { companyName: 'Tracker Co' });

    await page.goto('/admin/workspace-settings/webhooks');
    await page
      .getByRole('navigation', { name: 'Workspace Settings' })
      .getByRole('link', { name: 'Integrations' })
      .click();
    await expect(page).toHaveURL(/\/admin\/workspace-settings\/integrations$/);
    await expect(page.getByText('No tracker is connected to this workspace.')).toBeVisible();
    await expectAccessible(page);

    // A wrong token is refused on save, next to the field.
    await page.getByLabel('Server address (optional)').fill(github.origin);
    await page.getByLabel('Token', { exact: true }).fill('github_pat_wrong');
    await page.getByRole('button', { name: 'Connect' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'GitHub refused this token' })).toBeVisible();
    await expectAccessible(page);

    // By keyboard: the right token, then Enter.
    await page.getByLabel('Token', { exact: true }).fill('github_pat_e2e_good');
    await page.getByLabel('Token', { exact: true }).press('Enter');
    const host = new URL(github.origin).host;
    await expect(
      page.getByRole('status').filter({ hasText: `Connected as octo-admin to ${host}` }),
    ).toBeVisible();
    await expect(page.getByTestId('tracker-webhook-secret')).toHaveText(/^[A-Za-z0-9_-]{40,}$/);
    await expect(page.getByTestId('tracker-webhook-url')).toContainText('/api/tracker-connections/');
    await expectAccessible(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    // The token and the secret are never shown again.
    await page.reload();
    await expect(page.getByTestId('tracker-connection')).toContainText(`Connected as octo-admin to ${host}`);
    await expect(page.getByTestId('tracker-webhook-secret')).toHaveCount(0);

    // An action item on the results screen becomes a GitHub issue.
    const checkId = await checkWithResults(page, browser, {
      mailDir,
      workspaceId: admin.workspaceId,
      title: 'Tracker check',
    });
    const created = await page.request.post(`/api/health-checks/${checkId}/action-items`, {
      data: { description: 'Shorter standups', ownerId: admin.userId },
    });
    expect(created.status()).toBe(201);
    await page.goto(`/admin/health-check/${checkId}/results`);
    const row = page.locator('#action-items').getByTestId('action-item');
    await expect(row).toContainText('Shorter standups');
    await row.getByRole('button', { name: 'GitHub issue for action item: Shorter standups' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'GitHub issue' });
    await expect(dialog.getByLabel('Repository')).toBeVisible();
    await expectAccessible(page);
    await dialog.getByLabel('Repository').selectOption('acme/web');
    await dialog.getByRole('button', { name: 'Create issue in GitHub' }).click();
    await expect(dialog).toHaveCount(0);
    // Created by the server's job queue; the results screen hears of it live.
    await expect(row.getByRole('link', { name: 'acme/web#1' })).toBeVisible({ timeout: 30_000 });
    await expect(row.getByTestId('tracker-issue')).toContainText('Open');
    expect(github.issues.get('acme/web')?.[0]?.title).toBe('Shorter standups');
    await expectAccessible(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });
});

/**
 * GitLab (issue 36): the same journey against a stand-in GitLab Self-Managed on the loopback (strict by hand from
 * GitLab's REST API v4 documentation): GitLab's words on the form, a wrong token refused, 'Connected as …', then an
 * issue created in a project of a nested group; by keyboard, at 360 px, axe clean.
 */
test.describe('trackers: GitLab', () => {
  let gitlab: FakeGitlab;
  test.beforeAll(async () => {
    gitlab = await startFakeGitlab();
    gitlab.tokens.set('glpat-e2e-good', 'project_5_bot');
    gitlab.projects.push({ path: 'acme/platform/web' }, { path: 'acme/archived', archived: true });
  });
  test.afterAll(async () => {
    expect(gitlab.violations).toEqual([]);
    await gitlab.close();
  });

  test('an admin connects GitLab and creates an issue from an action item', async ({
    page,
    browser,
    mailDir,
  }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width: 360, height: 800 });
    const admin = await signUpAdmin(page, mailDir, { companyName: 'GitLab Co' });

    await page.goto('/admin/workspace-settings/integrations');
    await expect(page.getByText('No tracker is connected to this workspace.')).toBeVisible();
    await page.getByLabel('Tracker', { exact: true }).selectOption('gitlab');
    // GitLab's words: its token and its self-managed address.
    await expect(page.getByText(/A project or group access token with the api scope/)).toBeVisible();
    await expect(page.getByText(/Leave empty for gitlab\.com/)).toBeVisible();
    await expectAccessible(page);

    await page.getByLabel('Server address (optional)').fill(gitlab.origin);
    await page.getByLabel('Token', { exact: true }).fill('glpat-wrong');
    await page.getByRole('button', { name: 'Connect' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'GitLab refused this token' })).toBeVisible();
    await expectAccessible(page);

    await page.getByLabel('Token', { exact: true }).fill('glpat-e2e-good');
    await page.getByLabel('Token', { exact: true }).press('Enter');
    const host = new URL(gitlab.origin).host;
    await expect(
      page.getByRole('status').filter({ hasText: `Connected as project_5_bot to ${host}` }),
    ).toBeVisible();
    await expect(page.getByTestId('tracker-connection')).toContainText('GitLab:');
    await expect(page.getByText(/Add a webhook to each project \(or its group\)/)).toBeVisible();
    await expect(page.getByTestId('tracker-webhook-secret')).toHaveText(/^[A-Za-z0-9_-]{40,}$/);
    await expectAccessible(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    const checkId = await checkWithResults(page, browser, {
      mailDir,
      workspaceId: admin.workspaceId,
      title: 'Tracker check',
    });
    const created = await page.request.post(`/api/health-checks/${checkId}/action-items`, {
      data: { description: 'Shorter standups', ownerId: admin.userId, dueDate: '2027-03-01' },
    });
    expect(created.status()).toBe(201);
    await page.goto(`/admin/health-check/${checkId}/results`);
    const row = page.locator('#action-items').getByTestId('action-item');
    await expect(row).toContainText('Shorter standups');
    await row.getByRole('button', { name: 'GitLab issue for action item: Shorter standups' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'GitLab issue' });
    // Only projects with issues that are not archived are offered; GitLab calls them projects.
    await expect(dialog.getByLabel('Project')).toBeVisible();
    await expect(dialog.getByLabel('Project').locator('option')).toHaveText(['Choose…', 'acme/platform/web']);
    await expect(dialog.getByLabel('Issue URL')).toHaveAttribute(
      'placeholder',
      /gitlab\.com\/group\/project\/-\/issues/,
    );
    await expectAccessible(page);
    await dialog.getByLabel('Project').selectOption('acme/platform/web');
    await dialog.getByRole('button', { name: 'Create issue in GitLab' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(row.getByRole('link', { name: 'acme/platform/web#1' })).toBeVisible({ timeout: 30_000 });
    await expect(row.getByTestId('tracker-issue')).toContainText('Open');
    const [issue] = gitlab.issues.get('acme/platform/web') ?? [];
    expect(issue?.title).toBe('Shorter standups');
    expect(issue?.due_date).toBe('2027-03-01');
    await expectAccessible(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });
});
