import type { BrowserContext, Locator, Page } from '@playwright/test';
import { launchThroughApi, signUpAdmin } from './accounts';
import { expect } from './fixtures';

// The pseudo-locale walks (issue 34, decision 0027): en-XA accents English, makes it 30% longer and wraps every
// message in ⟦ ⟧, so text without the markers is a string the catalogues missed and a control that cuts its text
// off would cut off a longer language's too.

/**
 * An admin and a launched check whose names are in the pseudo-locale's letters: what people write stays as written,
 * so a walk tells it from a missed string.
 */
export async function pseudoAdminWithCheck(page: Page, mailDir: string) {
  const admin = await signUpAdmin(page, mailDir, { fullName: 'Ŧḗşŧ Ȧḓḿīƞ', companyName: 'Ƥşḗŭḓǿ Ƈǿ' });
  const check = await launchThroughApi(page, {
    workspaceId: admin.workspaceId,
    title: 'Ŧḗȧḿ Ƈħḗƈķ',
    description: 'Ŀȧŭƞƈħḗḓ ƀẏ ȧ ŧḗşŧ',
  });
  return { admin, check };
}

/** The page's language, as the server wrote it and the app keeps it. */
export const pageLanguage = (page: Page) => page.evaluate(() => document.documentElement.lang);

/** Sets the language cookie of `context` (the pseudo-locale's, by default). */
export const useLanguage = (context: BrowserContext, baseURL: string | undefined, language = 'en-XA') =>
  context.addCookies([{ name: 'pulsecheck_language', value: language, url: baseURL ?? '' }]);

/** Text a person sees on the page that is not marked as the pseudo-locale's: strings the catalogue missed. */
export function unmarkedText(page: Page) {
  return page.evaluate(() => {
    const missed: string[] = [];
    // Every message is wrapped in ⟦ ⟧, also one split over several elements (a message with a link), and a date
    // or a number inside a message has its own pair: what lies outside every pair, in document order, was missed.
    let depth = 0;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      if (!element || element.closest('script, style')) continue;
      let outside = '';
      for (const ch of node.textContent ?? '') {
        if (ch === '⟦') depth += 1;
        else if (ch === '⟧') depth = Math.max(0, depth - 1);
        else if (depth === 0) outside += ch;
      }
      if (
        !outside.trim() ||
        element.closest('[hidden], [aria-hidden="true"], [data-user-content], [translate="no"]')
      )
        continue;
      const style = getComputedStyle(element);
      if (style.display === 'none' || style.visibility === 'hidden') continue;
      // What is not a word (numbers, dates' digits, punctuation, emoji), an e-mail address or the product's name.
      const words = outside
        .replace(/\S+@\S+/g, '')
        .replace(/\bPulsecheck\b/g, '')
        .match(/[A-Za-z]{2,}/g);
      if (words) missed.push(node.textContent?.trim() ?? '');
    }
    // The words in attributes: a field's placeholder, what a screen reader says (an icon button's name), a tooltip.
    for (const element of document.body.querySelectorAll<HTMLElement>(
      '[placeholder], [aria-label], [title], img[alt]',
    )) {
      if (
        element.closest('[hidden], [aria-hidden="true"], [data-user-content], [translate="no"]') ||
        !element.getClientRects().length
      )
        continue;
      for (const name of ['placeholder', 'aria-label', 'title', 'alt']) {
        const value = element.getAttribute(name)?.trim() ?? '';
        if (!value || value.includes('⟦')) continue;
        // An example address or colour in a placeholder is not a word either.
        const words = value
          .replace(/\S+:\/\/\S+|#[0-9a-f]{3,8}\b/gi, '')
          .replace(/\S+@\S+/g, '')
          .replace(/\bPulsecheck\b/g, '')
          .match(/[A-Za-z]{2,}/g);
        if (words) missed.push(`${name}="${value}"`);
      }
    }
    // The tab's title.
    const title = document.title.replace(/\bPulsecheck\b/g, '');
    if (!title.includes('⟦') && /[A-Za-z]{2,}/.test(title)) missed.push(`title="${document.title}"`);
    return missed;
  });
}

/**
 * Controls whose text the longer pseudo-locale cuts off: the control itself, or an element in it that clips
 * translated text (a truncated label in a link or a button).
 */
export function clippedControls(page: Page) {
  return page.evaluate(() => {
    const controls = 'button, a, label, [role="tab"], th, select';
    return [...document.querySelectorAll<HTMLElement>(`${controls}, :is(${controls}) *`)]
      .filter((element) => {
        // Out of sight (a visually hidden label, 'Skip to content' until focused) is not clipped.
        if (!element.offsetParent || element.clientWidth <= 1) return false;
        const style = getComputedStyle(element);
        const clips = style.overflowX !== 'visible' || style.textOverflow === 'ellipsis';
        if (!clips || element.scrollWidth <= element.clientWidth + 1) return false;
        // Inside a control, only translated text counts: a long name someone wrote may be truncated by design.
        return element.matches(controls) || (element.textContent ?? '').includes('⟦');
      })
      .map((element) => element.textContent?.trim() ?? element.outerHTML.slice(0, 80));
  });
}

/** Adds what the page shows now that the pseudo-locale misses (unmarked text, clipped controls) to `problems`. */
export async function collectProblems(page: Page, where: string, problems: string[]) {
  for (const text of await unmarkedText(page)) problems.push(`${where}: not translated: "${text}"`);
  for (const text of await clippedControls(page)) problems.push(`${where}: clipped: "${text}"`);
}

/**
 * Opens `route` in a new page of `context` (whose language is en-XA), waits for its heading, its data and `ready`
 * (what the state walked shows, where a heading is not enough), checks that it is in en-XA and adds its problems to
 * `problems`. `then` may open a dialog or another state; the page closes after it.
 */
export async function walkRoute(
  context: BrowserContext,
  route: string,
  problems: string[],
  options: { ready?: (page: Page) => Locator; then?: (page: Page) => Promise<void> } = {},
) {
  const page = await context.newPage();
  try {
    await page.goto(route);
    await expect(page.locator('h1').first(), route).toBeVisible();
    if (options.ready) await expect(options.ready(page).first(), route).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(await pageLanguage(page), route).toBe('en-XA');
    await collectProblems(page, route, problems);
    await options.then?.(page);
  } finally {
    await page.close();
  }
}
