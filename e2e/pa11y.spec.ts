import { signUpAdmin } from './support/accounts';
import { expect, expectAccessible, test } from './support/fixtures';
import { expectPa11yClean } from './support/pa11y';

// Issue 31: a second checker, written by others (Pa11y with HTML_CodeSniffer, WCAG 2 AA), besides axe.
test.describe('Pa11y (HTML_CodeSniffer, WCAG 2 AA)', () => {
  test('reports no error on the public pages', async ({ page }) => {
    for (const [path, heading] of [
      ['/', 'h1'],
      ['/login', 'h1'],
      ['/admin/signup', 'h1'],
    ] as const) {
      await page.goto(path);
      await expect(page.locator(heading).first()).toBeVisible();
      await expectAccessible(page);
      await expectPa11yClean(page, heading);
    }
  });

  test('reports no error on the signed-in admin pages', async ({ page, mailDir }) => {
    await signUpAdmin(page, mailDir, { companyName: 'Checked Co' });
    for (const [path, heading] of [
      ['/admin/dashboard', 'Dashboard'],
      ['/admin/templates', 'Templates'],
      ['/admin/team-management', 'Team Management'],
      ['/admin/account-settings', 'Account Settings'],
      ['/admin/account-settings/security', 'Account Settings'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expectAccessible(page);
      await expectPa11yClean(page, 'main h1');
    }
  });
});
