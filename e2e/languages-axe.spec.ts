import { launchThroughApi, signUpAdmin, uniqueEmail, addActiveMember } from './support/accounts';
import { expect, expectAccessible, test } from './support/fixtures';
import { launchLoop } from './support/loops';
import { waitForMail } from './support/mail-capture';
import { pageLanguage, useLanguage } from './support/pseudo-locale';
import { checkWithResults } from './support/trackers';

// Issue 34: 'axe clean in every language (`lang` set, no contrast loss from longer text)'. The main pages, in each
// language other than English (English is every other spec's), for a visitor signed out and for the admin who
// chose the language: `<html lang>` names it and axe finds no serious violation.

const LANGUAGES = ['de', 'fr', 'es', 'pt-BR'] as const;

test.describe('axe in every language', () => {
  test.describe.configure({ timeout: 240_000 });

  test('the main pages are accessible and say their language in de, fr, es and pt-BR', async ({
    browser,
    baseURL,
    mailDir,
  }) => {
    // One admin for every language: a check collecting, a check with results, a loop whose round is open.
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    const admin = await signUpAdmin(page, mailDir, { companyName: 'Vielsprachig GmbH' });
    const collecting = await launchThroughApi(page, { workspaceId: admin.workspaceId, title: 'Team Check' });
    const withResults = await checkWithResults(page, browser, {
      mailDir,
      workspaceId: admin.workspaceId,
      title: 'Quarterly Check',
    });
    const member = await addActiveMember(page, mailDir, {
      workspaceId: admin.workspaceId,
      fullName: 'Mia Member',
      email: uniqueEmail('member'),
    });
    await launchLoop(page, admin.workspaceId, 'Weekly Pulse', { anonymous: false, minResponses: 1 });
    const mail = await waitForMail(mailDir, member.email, /^Weekly Pulse: round 1 is open$/);
    const token = /\/loop-answer\/([A-Za-z0-9_.-]+)/.exec(mail.text)?.[1];
    if (!token) throw new Error('no answer link in the e-mail');

    // Signed out at a phone's width (where a sign-up or an e-mail's link is often opened), signed in at a desktop's.
    const visitor = await browser.newContext({ baseURL, viewport: { width: 360, height: 800 } });
    const visitorPage = await visitor.newPage();
    for (const language of LANGUAGES) {
      const saved = await page.request.put('/api/account/language', { data: { language } });
      expect(saved.status(), await saved.text()).toBe(200);
      await useLanguage(context, baseURL, language);
      await useLanguage(visitor, baseURL, language);
      const pages = [
        [visitorPage, '/'],
        [visitorPage, '/login'],
        [visitorPage, '/admin/signup'],
        [visitorPage, `/loop-answer/${token}`],
        [page, '/admin/dashboard'],
        [page, '/admin/configure-health-check/new'],
        [page, `/health-check/${collecting.id}`],
        [page, `/admin/health-check/${withResults}/results`],
      ] as const;
      for (const [tab, route] of pages) {
        await tab.goto(route);
        await expect(tab.locator('h1').first(), `${language} ${route}`).toBeVisible();
        await tab.waitForLoadState('networkidle');
        expect(await pageLanguage(tab), `${language} ${route}`).toBe(language);
        await expectAccessible(tab);
      }
    }
    await visitor.close();
    await context.close();
  });
});
