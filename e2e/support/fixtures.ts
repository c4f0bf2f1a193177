import AxeBuilder from '@axe-core/playwright';
import { test as base, type BrowserContext, expect, type Page } from '@playwright/test';

/** Tests run against the server started by global-setup; its address arrives through the environment. */
export const test = base.extend<{ mailDir: string; everyWordLoaded: void }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright requires the destructuring form
  baseURL: async ({}, use) => use(process.env.E2E_BASE_URL),
  // eslint-disable-next-line no-empty-pattern
  mailDir: async ({}, use) => use(process.env.E2E_MAIL_DIR ?? ''),
  /**
   * Fails a test whose pages asked for a message their language's loaded parts do not hold (the app says
   * "Missing message: <key>" on the console: apps/web/src/lib/i18n.tsx): a word the build's parts left out.
   */
  everyWordLoaded: [
    async ({ browser, context }, use) => {
      const missing: string[] = [];
      const watch = (watched: BrowserContext) =>
        watched.on('console', (message) => {
          if (message.type() === 'error' && message.text().startsWith('Missing message'))
            missing.push(`${message.text()} (${message.location().url})`);
        });
      watch(context);
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (options) => {
        const made = await newContext(options);
        watch(made);
        return made;
      };
      await use();
      browser.newContext = newContext;
      expect(missing).toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** Fails on any serious or critical accessibility violation of the page as it is now. */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
  ).toEqual([]);
}
