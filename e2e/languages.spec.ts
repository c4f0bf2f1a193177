import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { launchThroughApi, signUpAdmin } from './support/accounts';
import { expect, expectAccessible, test } from './support/fixtures';

// Issue 34: five languages, each person's choice (decision 0027).

/** The page's language, as the server wrote it and the app keeps it. */
const pageLanguage = (page: Page) => page.evaluate(() => document.documentElement.lang);

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

/** Text a person sees on the page that is not marked as the pseudo-locale's: strings the catalogue missed. */
function unmarkedText(page: Page) {
  return page.evaluate(() => {
    const missed: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      const text = node.textContent?.trim() ?? '';
      if (
        !element ||
        !text ||
        element.closest(
          'script, style, [hidden], [aria-hidden="true"], [data-user-content], [translate="no"]',
        )
      )
        continue;
      const style = getComputedStyle(element);
      if (style.display === 'none' || style.visibility === 'hidden') continue;
      // The marked message this text belongs to (a message with links is split over several elements).
      const block = element.closest('p, li, h1, h2, h3, h4, label, button, a, th, td, dt, dd, span, div');
      if (block?.textContent?.includes('⟦')) continue;
      // What is not a word (numbers, dates' digits, punctuation, emoji), an e-mail address or the product's name.
      const words = text
        .replace(/\S+@\S+/g, '')
        .replace(/\bPulsecheck\b/g, '')
        .match(/[A-Za-z]{2,}/g);
      if (words) missed.push(text);
    }
    return missed;
  });
}

/** Controls whose text the longer pseudo-locale cuts off. */
function clippedControls(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('button, a, label, [role="tab"], th, select')]
      .filter((element) => {
        // Out of sight (a visually hidden label, 'Skip to content' until focused) is not clipped.
        if (!element.offsetParent || element.clientWidth <= 1) return false;
        const style = getComputedStyle(element);
        const clips = style.overflowX !== 'visible' || style.textOverflow === 'ellipsis';
        return clips && element.scrollWidth > element.clientWidth + 1;
      })
      .map((element) => element.textContent?.trim() ?? element.outerHTML.slice(0, 80)),
  );
}

test.describe('pseudo-locales (outside production)', () => {
  test.describe.configure({ timeout: 300_000 });

  test('en-XA: every route shows only marked text, and no control clips it', async ({
    browser,
    baseURL,
    mailDir,
  }) => {
    const context = await browser.newContext({ baseURL });
    const setup = await context.newPage();
    const admin = await signUpAdmin(setup, mailDir, { fullName: 'Ŧḗşŧ Ȧḓḿīƞ', companyName: 'Ƥşḗŭḓǿ Ƈǿ' });
    // What people write stays as written: in the pseudo-locale's letters here, so the walk tells it from a miss.
    const check = await launchThroughApi(setup, {
      workspaceId: admin.workspaceId,
      title: 'Ŧḗȧḿ Ƈħḗƈķ',
      description: 'Ŀȧŭƞƈħḗḓ ƀẏ ȧ ŧḗşŧ',
    });
    await context.addCookies([{ name: 'pulsecheck_language', value: 'en-XA', url: baseURL ?? '' }]);
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
    for (const route of routes) {
      const page = await context.newPage();
      await page.goto(route);
      await expect(page.locator('h1').first()).toBeVisible();
      await page.waitForLoadState('networkidle');
      expect(await pageLanguage(page)).toBe('en-XA');
      for (const text of await unmarkedText(page)) problems.push(`${route}: not translated: "${text}"`);
      for (const text of await clippedControls(page)) problems.push(`${route}: clipped: "${text}"`);
      await page.close();
    }
    // The signed-out pages too.
    const visitor = await browser.newContext({ baseURL });
    await visitor.addCookies([{ name: 'pulsecheck_language', value: 'en-XA', url: baseURL ?? '' }]);
    for (const route of ['/login', '/admin/signup', '/reset-password']) {
      const page = await visitor.newPage();
      await page.goto(route);
      await expect(page.locator('h1').first()).toBeVisible();
      for (const text of await unmarkedText(page)) problems.push(`${route}: not translated: "${text}"`);
      for (const text of await clippedControls(page)) problems.push(`${route}: clipped: "${text}"`);
      await page.close();
    }
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
    await context.addCookies([{ name: 'pulsecheck_language', value: 'ar-XB', url: baseURL ?? '' }]);
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
