import type { Browser, BrowserContext } from '@playwright/test';
import { signUpAdmin } from './support/accounts';
import { expect, expectAccessible, test } from './support/fixtures';
import { expectPa11yClean } from './support/pa11y';

// Issue 31: a second checker that no one on this project wrote (Pa11y with HTML_CodeSniffer, WCAG 2 AA), besides axe.
// Each page starts a Chromium of Pa11y's own: slow on a busy machine.
test.describe('Pa11y (HTML_CodeSniffer, WCAG 2 AA)', () => {
  test.describe.configure({ timeout: 180_000 });

  for (const path of ['/', '/login', '/admin/signup']) {
    test(`reports no error on ${path}`, async ({ page }) => {
      await page.goto(path);
      await expect(page.locator('h1').first()).toBeVisible();
      await expectAccessible(page);
      await expectPa11yClean(page, 'h1');
    });
  }

  let signedIn: Awaited<ReturnType<BrowserContext['storageState']>> | undefined;
  const admin = async (browser: Browser, mailDir: string, baseURL: string | undefined) => {
    if (!signedIn) {
      const context = await browser.newContext({ baseURL });
      await signUpAdmin(await context.newPage(), mailDir, { companyName: 'Checked Co' });
      signedIn = await context.storageState();
      await context.close();
    }
    return browser.newContext({ baseURL, storageState: signedIn });
  };

  // Each page with a CSS selector that shows once its data is there (Pa11y tests from then on).
  for (const [path, heading, ready] of [
    ['/admin/dashboard', 'Dashboard', 'main [role="tablist"]'],
    ['/admin/templates', 'Templates', 'main ul li'],
    ['/admin/team-management', 'Team Management', '[data-testid="member-row"]'],
    ['/admin/account-settings', 'Account Settings', 'main input[autocomplete="name"]'],
    ['/admin/account-settings/security', 'Account Settings', '#require-two-factor'],
  ] as const) {
    test(`reports no error on ${path}`, async ({ browser, mailDir, baseURL }) => {
      const context = await admin(browser, mailDir, baseURL);
      const page = await context.newPage();
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expect(page.locator(ready).first()).toBeVisible();
      await expectAccessible(page);
      await expectPa11yClean(page, ready);
      await context.close();
    });
  }
});
