import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';

/** Tests run against the server started by global-setup; its address arrives through the environment. */
export const test = base.extend<{ mailDir: string }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright requires the destructuring form
  baseURL: async ({}, use) => use(process.env.E2E_BASE_URL),
  // eslint-disable-next-line no-empty-pattern
  mailDir: async ({}, use) => use(process.env.E2E_MAIL_DIR ?? ''),
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
