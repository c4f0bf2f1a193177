import type { Browser, Page } from '@playwright/test';
import { completeParticipation, launchThroughApi, signUpAdmin, uniqueEmail } from './support/accounts';
import { expect, expectAccessible, test } from './support/fixtures';
import { waitForMail } from './support/mail-capture';

/** A workspace of the signed-in owner's organisation, through the API. */
async function workspace(page: Page, name: string) {
  const response = await page.request.post('/api/workspaces', { data: { name } });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { workspace: { id: string } }).workspace.id;
}

/**
 * A team's completed health check (its first three catalogue components, minimum 3 responses): each rating list is
 * one participant's, who signs up, verifies by e-mail and submits in a browser context of their own; then the
 * owner moves the check through voting to completed.
 */
async function completedCheck(
  page: Page,
  browser: Browser,
  mailDir: string,
  workspaceId: string,
  title: string,
  people: string[][],
) {
  const check = await launchThroughApi(page, { workspaceId, title, minResponses: 1 });
  for (const [index, ratings] of people.entries()) {
    const context = await browser.newContext();
    await completeParticipation(context, mailDir, check.id, `${title} Person ${index + 1}`, ratings);
    await context.close();
  }
  for (const to of ['vote', 'summarize'])
    expect((await page.request.post(`/api/health-checks/${check.id}/phase`, { data: { to } })).ok()).toBe(
      true,
    );
  return check.id;
}

test.describe('organisation insights', () => {
  test('the owner reads three teams on the heat map, opens a cell, and appoints an organisation admin', async ({
    page,
    browser,
    mailDir,
  }) => {
    test.setTimeout(300_000);
    const owner = await signUpAdmin(page, mailDir, { companyName: 'Insight Co' });
    const fire = ['fire-warning', 'healthy', 'needs-improvement'];
    const healthy = ['healthy', 'healthy', 'healthy'];
    const platform = await workspace(page, 'Platform');
    const mobile = await workspace(page, 'Mobile');
    // The owner's first workspace, renamed Zulu: fire warnings on the first component.
    expect(
      (await page.request.patch(`/api/workspaces/${owner.workspaceId}`, { data: { name: 'Zulu' } })).ok(),
    ).toBe(true);
    const zuluCheck = await completedCheck(page, browser, mailDir, owner.workspaceId, 'Zulu', [
      fire,
      fire,
      fire,
    ]);
    await completedCheck(page, browser, mailDir, platform, 'Platform', [healthy, healthy, healthy]);
    // Two responses: enough for the team (its minimum is 1), never for the organisation's view.
    await completedCheck(page, browser, mailDir, mobile, 'Mobile', [fire, fire]);

    await page.goto('/admin/dashboard');
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Insights' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Organisation insights' })).toBeVisible();
    const map = page.getByTestId('heat-map');
    await expect(map.getByTestId('team-column')).toHaveCount(2);
    await expect(map.getByRole('columnheader', { name: /Organisation \(2 teams\)/ })).toBeVisible();
    await expect(page.getByTestId('left-out').first()).toContainText(
      '1 team is left out: 1 with fewer responses than their minimum',
    );
    // Weakest first by default: Zulu, then Platform.
    await expect(map.getByTestId('team-column')).toHaveText([/Zulu/, /Platform/]);
    // Words, not colour alone: Zulu's first component is urgent, Platform's healthy.
    const decisions = map
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: /Decisions/ }) });
    const cells = decisions.getByTestId('heat-cell');
    await expect(cells.first()).toContainText('Urgent');
    await expect(cells.last()).toContainText('Healthy');
    await expect(cells.first()).toHaveAccessibleName(
      /in Zulu: Urgent\. Needs Immediate Attention: 0% healthy, 0% needs improvement, 100% fire warning/,
    );
    await expect(page.getByTestId('top-components')).toContainText('Decisions');
    await expectAccessible(page);

    await page.getByLabel('Sort teams by').selectOption('name');
    await expect(map.getByTestId('team-column')).toHaveText([/Platform/, /Zulu/]);
    await expect(page).toHaveURL(/sort=name/);

    // 360 px: the map scrolls inside its own frame; the page itself does not scroll sideways.
    await page.setViewportSize({ width: 360, height: 780 });
    await expect(map).toBeVisible();
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    await expectAccessible(page);
    await page.setViewportSize({ width: 1280, height: 800 });

    await decisions.getByTestId('heat-cell').last().click();
    await expect(page).toHaveURL(new RegExp(`/admin/health-check/${zuluCheck}/results#component-c1$`));
    const area = page.locator('#component-c1');
    await expect(area).toBeVisible();
    await expect(area.locator('button[aria-expanded]')).toHaveAttribute('aria-expanded', 'true');

    // The owner appoints a member of Platform as an organisation admin from Team Management.
    const email = uniqueEmail('olga');
    const invited = await page.request.post(`/api/workspaces/${owner.workspaceId}/invitations`, {
      data: { email, role: 'People Partner' },
    });
    expect(invited.status()).toBe(201);
    const mail = await waitForMail(mailDir, email, /invited/);
    const token = /\/invite\/([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
    const olga = await browser.newContext({ baseURL: new URL(page.url()).origin });
    const accepted = await olga.request.post(`/api/invitations/${token}/accept-signup`, {
      data: { fullName: 'Olga Org', password: 'olga-password-1', confirmPassword: 'olga-password-1' },
    });
    expect(accepted.status(), await accepted.text()).toBe(200);
    const olgaPage = await olga.newPage();
    await olgaPage.goto('/admin/dashboard');
    await expect(olgaPage.getByRole('link', { name: 'Dashboard' })).toBeVisible();
    await expect(olgaPage.getByRole('link', { name: 'Insights' })).toHaveCount(0);

    await page.goto('/admin/team-management');
    await page.getByRole('button', { name: 'Edit Olga Org' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Olga Org' });
    await dialog.getByLabel('Organisation admin').check();
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('member-row').filter({ hasText: 'Olga Org' })).toContainText(
      'Organisation admin',
    );

    // Olga sees the whole organisation, Platform and Mobile included, without being a member of them.
    await olgaPage.goto('/admin/insights');
    await expect(olgaPage.getByTestId('heat-map').getByTestId('team-column')).toHaveCount(2);
    await olga.close();
  });

  test('an organisation without completed checks gets an empty state, readable at 360 px', async ({
    page,
    mailDir,
  }) => {
    await page.setViewportSize({ width: 360, height: 780 });
    await signUpAdmin(page, mailDir, { companyName: 'Narrow Co' });
    await page.goto('/admin/insights');
    await expect(page.getByRole('heading', { level: 1, name: 'Organisation insights' })).toBeVisible();
    await expect(page.getByText('No team has a completed health check in this period yet.')).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectAccessible(page);
  });
});
