import type { Browser, Page } from '@playwright/test';
import { startFakeGithub, type FakeGithub } from '../apps/server/src/test/github-server';
import { joinedParticipant, launchThroughApi, signUpAdmin } from './support/accounts';
import { expect, expectAccessible, test } from './support/fixtures';

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

  /** A check in summarize with one response, as the facilitator has it after collecting and voting. */
  async function checkWithResults(page: Page, browser: Browser, mailDir: string, workspaceId: string) {
    const check = await launchThroughApi(page, { workspaceId, title: 'Tracker check' });
    const context = await browser.newContext();
    await joinedParticipant(context, mailDir, check.id, 'Rae Rater');
    const read = (await (
      await context.request.get(`/api/health-checks/${check.id}/participation`)
    ).json()) as {
      components: { id: string }[];
    };
    const submitted = await context.request.post(`/api/health-checks/${check.id}/submit`, {
      data: {
        votes: Object.fromEntries(read.components.map((c) => [c.id, 'healthy'])),
        comments: {},
        last_component_index: 0,
      },
    });
    expect(submitted.status()).toBe(200);
    await context.close();
    for (const to of ['vote', 'summarize']) {
      const moved = await page.request.post(`/api/health-checks/${check.id}/phase`, { data: { to } });
      expect(moved.status(), await moved.text()).toBe(200);
    }
    return check.id;
  }

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
    const checkId = await checkWithResults(page, browser, mailDir, admin.workspaceId);
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
