import type { Page } from '@playwright/test';
import pa11y from 'pa11y';
import puppeteer from 'puppeteer-core';
import { expect } from './fixtures';

/**
 * Fails on any error Pa11y finds on the page `page` shows, with the HTML_CodeSniffer runner against WCAG 2 AA
 * (notices and warnings are allowed). Pa11y loads the address again in a Chromium of its own (Debian's, like the
 * rest of the browser tests) holding `page`'s cookies, so a signed-in page stays signed in, and tests once `ready`
 * (a CSS selector) is visible.
 */
export async function expectPa11yClean(page: Page, ready = 'main h1') {
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    await browser.setCookie(...(await page.context().cookies()));
    const results = await pa11y(page.url(), {
      runners: ['htmlcs'],
      standard: 'WCAG2AA',
      browser,
      page: await browser.newPage(),
      actions: [`wait for element ${ready} to be visible`],
      timeout: 30_000,
    });
    expect(results.pageUrl).toBe(page.url());
    expect(
      results.issues
        .filter((issue) => issue.type === 'error')
        .map((issue) => `${issue.code}: ${issue.message} (${issue.selector})`),
    ).toEqual([]);
  } finally {
    await browser.close();
  }
}
