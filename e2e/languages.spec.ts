import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { launchThroughApi, signUpAdmin } from './support/accounts';
import { expect, expectAccessible, test } from './support/fixtures';
import { pageLanguage, pseudoAdminWithCheck, useLanguage, walkRoute } from './support/pseudo-locale';

// Issue 34: five languages, each person's choice (decision 0027).

test.describe('languages', () => {
  test('the first visit follows Accept-Language; the menu changes it and the choice is kept', async ({
    browser,
    baseURL,
  }) => {
    const context = await browser.newContext({ baseURL, locale: 'de-AT' });
    const page = await context.newPage();
    const response = await page.goto('/');
    // Written in German by the server itself: no English first.
    expect(await response?.text()).toContain('<html lang="de" dir="ltr" data-language="de">');
    expect(await pageLanguage(page)).toBe('de');
    const menu = page.getByLabel('Sprache', { exact: true });
    await expect(menu).toHaveValue('de');
    await expectAccessible(page);

    await menu.selectOption('fr');
    await expect(page.getByLabel('Langue', { exact: true })).toHaveValue('fr');
    expect(await pageLanguage(page)).toBe('fr');
    await page.goto('/login');
    expect(await pageLanguage(page)).toBe('fr');
    await expect(page.getByLabel('Langue', { exact: true })).toHaveValue('fr');
    await expectAccessible(page);
    await context.close();
  });

  test("a signed-in person's stored language wins over the browser's", async ({
    browser,
    baseURL,
    mailDir,
  }) => {
    const context = await browser.newContext({ baseURL, locale: 'en-US' });
    const page = await context.newPage();
    await signUpAdmin(page, mailDir, { companyName: 'Sprachen GmbH' });
    const saved = await page.request.put('/api/account/language', { data: { language: 'es' } });
    expect(saved.status(), await saved.text()).toBe(200);
    await page.goto('/admin/dashboard');
    await expect.poll(() => pageLanguage(page)).toBe('es');
    await expectAccessible(page);
    // A wrong language is refused, and nothing changes.
    const refused = await page.request.put('/api/account/language', { data: { language: 'xx' } });
    expect(refused.status()).toBe(400);
    expect(
      ((await (await page.request.get('/api/account/language')).json()) as { language: string }).language,
    ).toBe('es');
    await context.close();
  });
});

test.describe('pseudo-locales (outside production)', () => {
  test.describe.configure({ timeout: 300_000 });

  test('en-XA: every route shows only marked text, and no control clips it', async ({
    browser,
    baseURL,
    mailDir,
  }) => {
    const context = await browser.newContext({ baseURL });
    const setup = await context.newPage();
    const { check } = await pseudoAdminWithCheck(setup, mailDir);
    await useLanguage(context, baseURL);
    const routes = [
      '/',
      '/terms',
      '/privacy',
      '/admin/dashboard',
      '/admin/workspaces',
      '/admin/templates',
      '/admin/configure-health-check/new',
      '/admin/configure-loop/new',
      '/admin/team-management',
      '/admin/team-management/invitations',
      '/admin/insights',
      '/admin/workspace-settings/webhooks',
      '/admin/workspace-settings/integrations',
      '/admin/account-settings',
      '/admin/account-settings/notifications',
      '/admin/account-settings/security',
      '/admin/account-settings/organisation',
      '/admin/account-settings/api-tokens',
      '/admin/account-settings/audit-log',
      `/admin/health-check/${check.id}/manage`,
      `/admin/health-check/${check.id}/results`,
      `/join/${check.id}`,
      `/health-check/${check.id}`,
    ];
    const problems: string[] = [];
    for (const route of routes) await walkRoute(context, route, problems);
    // The signed-out pages too.
    const visitor = await browser.newContext({ baseURL });
    await useLanguage(visitor, baseURL);
    for (const route of ['/login', '/admin/signup', '/reset-password'])
      await walkRoute(visitor, route, problems);
    expect(problems).toEqual([]);
    await visitor.close();
    await context.close();
  });

  test('ar-XB: the participation and results screens right to left (screenshots kept)', async ({
    browser,
    baseURL,
    mailDir,
  }, testInfo) => {
    const context = await browser.newContext({ baseURL, viewport: { width: 360, height: 800 } });
    const setup = await context.newPage();
    const admin = await signUpAdmin(setup, mailDir, { companyName: 'RTL Co' });
    const check = await launchThroughApi(setup, { workspaceId: admin.workspaceId, title: 'RTL check' });
    await useLanguage(context, baseURL, 'ar-XB');
    const folder = testInfo.outputPath('rtl');
    mkdirSync(folder, { recursive: true });
    for (const [name, route] of [
      ['participation', `/health-check/${check.id}`],
      ['results', `/admin/health-check/${check.id}/results`],
    ] as const) {
      const page = await context.newPage();
      await page.goto(route);
      await expect(page.locator('h1').first()).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
      await page.screenshot({ path: path.join(folder, `${name}.png`), fullPage: true });
      await testInfo.attach(`${name} right to left`, { path: path.join(folder, `${name}.png`) });
      await page.close();
    }
    await context.close();
  });
});
