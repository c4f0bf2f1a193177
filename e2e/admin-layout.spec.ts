import { launchThroughApi, signUpAdmin } from './support/accounts';
import { expect, expectAccessible, test } from './support/fixtures';

test.describe('admin layout', () => {
  test('at 1280 px the 280 px sidebar stays open beside the content', async ({ page, mailDir }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await signUpAdmin(page, mailDir, { companyName: 'Wide Co' });
    await page.goto('/admin/dashboard');
    const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
    await expect(sidebar).toBeVisible();
    expect((await sidebar.boundingBox())?.width).toBe(280);
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeHidden();
    await expect(page.getByTestId('active-workspace')).toHaveText('Wide Co');
    const nav = page.getByRole('navigation', { name: 'Admin' });
    for (const [label, href] of [
      ['Dashboard', '/admin/dashboard'],
      ['Templates', '/admin/templates'],
      ['Team Management', '/admin/team-management'],
      ['Account Settings', '/admin/account-settings'],
    ] as const) {
      await expect(nav.getByRole('link', { name: label })).toHaveAttribute('href', href);
    }
    const main = page.locator('#admin-main');
    expect((await main.boundingBox())?.x ?? 0).toBeGreaterThanOrEqual(280);
    await nav.getByRole('link', { name: 'Templates' }).click();
    await expect(page).toHaveURL(/\/admin\/templates$/);
    await expect(sidebar).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toContainText('Templates');
    await expectAccessible(page);
  });

  test('at 800 px the sidebar slides in with an overlay and closes on navigation', async ({
    page,
    mailDir,
  }) => {
    await page.setViewportSize({ width: 800, height: 900 });
    await signUpAdmin(page, mailDir, { companyName: 'Narrow Co' });
    await page.goto('/admin/dashboard');
    const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
    await expect(sidebar).toBeHidden();
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(sidebar).toBeVisible();
    await expect(page.getByTestId('sidebar-overlay')).toBeVisible();
    await expectAccessible(page);
    await expect(page.getByRole('button', { name: 'Close menu' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(sidebar).toBeHidden();
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByTestId('sidebar-overlay').click({ position: { x: 700, y: 400 } });
    await expect(sidebar).toBeHidden();

    await page.getByRole('button', { name: 'Open menu' }).click();
    await sidebar.getByRole('link', { name: 'Templates' }).click();
    await expect(page).toHaveURL(/\/admin\/templates$/);
    await expect(sidebar).toBeHidden();
    await expect(page.getByTestId('sidebar-overlay')).toHaveCount(0);
  });

  test('breadcrumb labels and the home link', async ({ page, mailDir }) => {
    const admin = await signUpAdmin(page, mailDir, { companyName: 'Crumbs Co' });
    const check = await launchThroughApi(page, { workspaceId: admin.workspaceId, title: 'Crumbs' });
    await page.goto(`/admin/health-check/${check.id}/manage`);
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
    await expect(crumbs.getByRole('listitem')).toHaveText(['', 'Health Check', 'Manage']);
    await page.goto('/admin/configure-health-check/new');
    await expect(page.getByRole('heading', { name: 'Create Health Check' })).toBeVisible();
    await expect(crumbs.getByRole('listitem')).toHaveText(['', 'Configure Health Check', 'New']);
    await crumbs.getByRole('link', { name: 'Home' }).click();
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
  });

  test('workspaces: create, rename, switch; the sidebar shows the active one', async ({ page, mailDir }) => {
    await signUpAdmin(page, mailDir, { companyName: 'Multi Co' });
    await page.goto('/admin/workspaces');
    await expect(page.getByTestId('workspaces-active')).toHaveText('Multi Co');
    await expectAccessible(page);
    await page.getByLabel('Workspace name').fill('Platform');
    await page.getByRole('button', { name: 'Create Workspace' }).click();
    await expect(page.getByText('Workspace created')).toBeVisible();
    await page.getByRole('button', { name: 'Rename Platform' }).click();
    await page.getByLabel('New name for Platform').fill('Platform Team');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Workspace renamed')).toBeVisible();
    await page.getByRole('button', { name: 'Switch to Platform Team' }).click();
    await expect(page.getByTestId('workspaces-active')).toHaveText('Platform Team');
    await expect(page.getByTestId('active-workspace')).toHaveText('Platform Team');
    await page.goto('/admin/dashboard');
    await expect(page.getByText('Platform Team', { exact: true }).first()).toBeVisible();
  });

  test('logout shows progress, ends the session and goes to /login', async ({ page, mailDir }) => {
    await signUpAdmin(page, mailDir, { companyName: 'Bye Co' });
    await page.goto('/admin/dashboard');
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/logout', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page.getByRole('button', { name: 'Logging out...' })).toBeDisabled();
    release();
    await expect(page).toHaveURL(/\/login$/);
    expect((await page.request.get('/api/me')).status()).toBe(401);
    await page.goto('/admin/dashboard');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('logout is usable again after a failure', async ({ page, mailDir }) => {
    await signUpAdmin(page, mailDir, { companyName: 'Retry Co' });
    await page.goto('/admin/dashboard');
    await page.route('**/api/logout', (route) => route.abort('failed'));
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page.getByRole('button', { name: 'Logout' })).toBeEnabled();
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
  });
});

test('admin screens stay readable at 360 px without sideways scrolling', async ({ page, mailDir }) => {
  await page.setViewportSize({ width: 360, height: 780 });
  const admin = await signUpAdmin(page, mailDir, { companyName: 'Phone Co' });
  const check = await launchThroughApi(page, { workspaceId: admin.workspaceId, title: 'Small screen check' });
  for (const path of [
    '/admin/dashboard',
    '/admin/templates',
    '/admin/workspaces',
    '/admin/configure-health-check/new',
    `/admin/health-check/${check.id}/manage`,
  ]) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, path).toBeLessThanOrEqual(0);
  }
  await expectAccessible(page);
});
