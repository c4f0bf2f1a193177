import type { Browser, BrowserContextOptions, Locator, Page } from '@playwright/test';
import { addActiveMember, signUpAdmin } from './support/accounts';
import { expect, expectAccessible, test } from './support/fixtures';
import { launchLoop } from './support/loops';
import { waitForMail, type CapturedMail } from './support/mail-capture';

/** The e-mail of a loop's round to one person. */
const roundMail = (mailDir: string, to: string, title: string, round: number) =>
  waitForMail(mailDir, to, new RegExp(`^${title}: round ${round} is open$`));

/** The personal answer link ('Answer now') of a round's e-mail. */
const answerLink = (mail: CapturedMail) => {
  const link = /https?:\/\/\S+\/loop-answer\/[A-Za-z0-9_.-]+(?=\s|$)/m.exec(mail.text)?.[0];
  if (!link) throw new Error('no answer link in the e-mail');
  return link;
};

/** The one-click link of `value` in a round's e-mail (its text part: '4: https://…/loop-answer/…?answer=4'). */
const quickLink = (mail: CapturedMail, value: number) => {
  const link = new RegExp(
    `^${value}: (https?://\\S+/loop-answer/[A-Za-z0-9_.-]+\\?answer=${value})$`,
    'm',
  ).exec(mail.text)?.[1];
  if (!link) throw new Error(`no one-click link for ${value} in the e-mail`);
  return link;
};

/** A person who is not signed in, reading their e-mail in a browser of their own. */
async function inbox(browser: Browser, baseURL: string | undefined, options: BrowserContextOptions = {}) {
  const context = await browser.newContext({ baseURL, ...options });
  return { page: await context.newPage(), close: () => context.close() };
}

/** Opens the e-mail as the person's mail program shows it and clicks a value of the first question. */
async function clickInMail(page: Page, mail: CapturedMail, value: number) {
  await page.setContent(mail.html);
  await page.getByRole('link', { name: `Answer ${value}`, exact: true }).click();
}

/** Answers the whole form of an answer page: the scale questions with `scale`, free text with `text`. */
async function answerAll(page: Page, options: { scale: number; text?: string }) {
  const groups = page.getByRole('group');
  await expect(page.getByRole('button', { name: 'Submit Answers' })).toBeVisible();
  const count = await groups.count();
  for (let i = 0; i < count; i += 1) {
    const group = groups.nth(i);
    const textbox = group.getByRole('textbox');
    if (await textbox.count()) {
      if (options.text) await textbox.fill(options.text);
    } else {
      await group.getByRole('radio', { name: new RegExp(`^${options.scale}(,|$)`) }).check();
    }
  }
  await page.getByRole('button', { name: 'Submit Answers' }).click();
  await expect(page.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
}

/** Presses Tab until `target` has the keyboard focus: it is reachable without a mouse (fails after 80 presses). */
async function tabTo(page: Page, target: Locator) {
  for (let i = 0; i < 80; i += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error('not reachable by Tab');
}

/** How far the page scrolls sideways (0: it fits the window). */
const sidewaysOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

test.describe('loops', () => {
  test('from a template: launch now, answer from the e-mail, watch completion, close, results, a second round and its trend', async ({
    page,
    browser,
    mailDir,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    const admin = await signUpAdmin(page, mailDir, { fullName: 'Alex Admin', companyName: 'Loop Co' });
    const ana = await addActiveMember(page, mailDir, {
      workspaceId: admin.workspaceId,
      fullName: 'Ana Answer',
    });
    const bo = await addActiveMember(page, mailDir, { workspaceId: admin.workspaceId, fullName: 'Bo Busy' });

    // Dashboard → 'Create Loop' → the loop templates.
    await page.goto('/admin/dashboard');
    await page.getByRole('link', { name: 'Create Loop' }).click();
    await expect(page).toHaveURL(/\/admin\/templates\?type=loop$/);
    await expect(page.getByRole('button', { name: 'Loops' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('article')).toHaveCount(5);
    await expectAccessible(page);
    await page
      .getByRole('article', { name: 'Weekly Pulse' })
      .getByRole('link', { name: 'Use Template' })
      .click();

    // Configure Loop, prefilled from the template; 'Start now'.
    await expect(page).toHaveURL(/\/admin\/configure-loop\/new\?template=[0-9a-f-]{36}$/);
    await expect(page.getByRole('heading', { name: 'Configure Loop', level: 1 })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toContainText('Configure Loop');
    await expect(page.getByLabel('Title')).toHaveValue('Weekly Pulse');
    await expect(page.getByRole('group', { name: /^Question \d+$/ })).toHaveCount(5);
    await expect(page.getByLabel('Time zone')).toHaveValue(
      await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone),
    );
    await expect(page.getByTestId('first-round')).toContainText('As soon as you launch');
    await page.getByText('Preview what people answer').click();
    await expect(page.getByRole('group', { name: '1. How was your week overall?' })).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Launch Loop' }).click();

    // Completion Status: round 1 is open for the three active members.
    await expect(page).toHaveURL(/\/admin\/completion-status\/[0-9a-f-]{36}$/);
    const loopId = page.url().split('/').at(-1)!;
    await expect(page.getByRole('heading', { name: 'Round 1' })).toBeVisible();
    await expect(page.getByTestId('answered')).toHaveText('0 of 3 answered');
    await expect(page.getByRole('region', { name: 'Not answered yet (3)' })).toContainText('Ana Answer');
    await expect(page.getByTestId('time-left')).toContainText('left');
    await expectAccessible(page);

    // Ana clicks 4 in her e-mail: the page opens with 4 chosen and records it when she presses 'Send my answer',
    // then she adds the rest.
    const anaMail = await roundMail(mailDir, ana.email, 'Weekly Pulse', 1);
    const anaInbox = await inbox(browser, baseURL);
    await clickInMail(anaInbox.page, anaMail, 4);
    await expect(anaInbox.page.getByRole('radio', { name: '4', exact: true })).toBeChecked();
    await expect(anaInbox.page.getByText("Nothing is sent until you press 'Send my answer'.")).toBeVisible();
    await expectAccessible(anaInbox.page);
    await expect(page.getByTestId('answered')).toHaveText('0 of 3 answered');
    await anaInbox.page.getByRole('button', { name: 'Send my answer' }).click();
    await expect(anaInbox.page.getByText('Your answer 4 to the first question is recorded.')).toBeVisible();
    await expectAccessible(anaInbox.page);
    // Live: the admin's screen follows without a reload.
    await expect(page.getByTestId('answered')).toHaveText('1 of 3 answered');
    await expect(page.getByRole('region', { name: 'Answered (1)' })).toContainText('Ana Answer');
    await answerAll(anaInbox.page, { scale: 4, text: 'Fewer meetings on Fridays' });
    // The link is one answer per round.
    await anaInbox.page.goto(answerLink(anaMail));
    await expect(
      anaInbox.page.getByRole('heading', { name: 'You have already answered this round' }),
    ).toBeVisible();
    await anaInbox.close();

    // Bo answers through the button of his e-mail.
    const boInbox = await inbox(browser, baseURL);
    await boInbox.page.goto(answerLink(await roundMail(mailDir, bo.email, 'Weekly Pulse', 1)));
    await expect(boInbox.page.getByRole('heading', { name: 'Weekly Pulse' })).toBeVisible();
    await expectAccessible(boInbox.page);
    await answerAll(boInbox.page, { scale: 3, text: 'More pairing' });
    await boInbox.close();

    // The admin answers as a signed-in member, from /dashboard.
    await expect(page.getByTestId('answered')).toHaveText('2 of 3 answered');
    const status = page.url();
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { name: 'Open Loop Rounds' })).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('link', { name: /Answer Now: Weekly Pulse, round 1/ }).click();
    await answerAll(page, { scale: 5, text: 'Clearer priorities' });
    await page.goto(status);
    await expect(page.getByTestId('answered')).toHaveText('3 of 3 answered');
    await expect(page.getByTestId('response-rate')).toHaveText('100%');

    // Close Round Now (confirmed).
    await page.getByRole('button', { name: 'Close Round Now' }).click();
    const confirm = page.getByRole('dialog', { name: 'Close Round Now?' });
    await expectAccessible(page);
    await confirm.getByRole('button', { name: 'Close Round' }).click();
    await expect(page.getByRole('heading', { name: 'No round is open' })).toBeVisible();
    await expect(page.getByTestId('round-1-rate')).toHaveText('100%');

    // Results of round 1: the histogram and mean, the free text without names, the CSV export.
    await page
      .getByRole('navigation', { name: 'Loop screens' })
      .getByRole('link', { name: 'Results', exact: true })
      .click();
    await expect(page).toHaveURL(new RegExp(`/admin/loop-results/${loopId}$`));
    await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toContainText('Dashboard');
    const first = page.getByRole('article', { name: /^Question 1:/ });
    // 4, 3 and 5: mean 4.0.
    await expect(first).toContainText('Mean 4.0 of 5');
    await expect(first.getByRole('list')).toContainText('1 (33%)');
    const freeText = page.getByRole('article', { name: /^Question 5:/ });
    await expect(freeText).toContainText('Fewer meetings on Fridays');
    await expect(freeText).not.toContainText('Ana');
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Export CSV' }).click();
    expect((await download).suggestedFilename()).toMatch(/\.csv$/);
    await expectAccessible(page);

    // Edit: people have answered, so anonymity stays on; rewording question 3 starts a new trend line.
    await page
      .getByRole('navigation', { name: 'Loop screens' })
      .getByRole('link', { name: 'Completion Status', exact: true })
      .click();
    await page.getByRole('link', { name: 'Edit Loop' }).click();
    await expect(page.getByText(/the settings that protect them can only get stricter/)).toBeVisible();
    await expect(page.getByRole('switch', { name: 'Anonymous answers' })).toBeDisabled();
    await page
      .getByRole('group', { name: 'Question 3' })
      .getByLabel('Wording')
      .fill('How much progress did you make on your top priority?');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/completion-status/${loopId}$`));

    // Start Next Round Now; everyone answers round 2 from their e-mail.
    await page.getByRole('button', { name: 'Start Next Round Now' }).click();
    await page
      .getByRole('dialog', { name: 'Start Next Round Now?' })
      .getByRole('button', { name: 'Start Round' })
      .click();
    await expect(page.getByRole('heading', { name: 'Round 2' })).toBeVisible();
    for (const person of [ana.email, bo.email]) {
      const reader = await inbox(browser, baseURL);
      await reader.page.goto(answerLink(await roundMail(mailDir, person, 'Weekly Pulse', 2)));
      await answerAll(reader.page, { scale: 2 });
      await reader.close();
    }
    // The admin answers from the bell's notice of the new round.
    await page
      .getByRole('button', { name: /^Notifications/ })
      .locator('visible=true')
      .click();
    await page
      .getByRole('region', { name: 'Your notifications' })
      .getByRole('button', { name: /Weekly Pulse.*round 2 is open/ })
      .click();
    await expect(page).toHaveURL(/\/loop-rounds\/[0-9a-f-]{36}$/);
    await answerAll(page, { scale: 1 });
    await page.goto(`/admin/completion-status/${loopId}`);
    await expect(page.getByTestId('answered')).toHaveText('3 of 3 answered');
    await page.getByRole('button', { name: 'Close Round Now' }).click();
    await page
      .getByRole('dialog', { name: 'Close Round Now?' })
      .getByRole('button', { name: 'Close Round' })
      .click();
    await expect(page.getByTestId('round-2-rate')).toHaveText('100%');

    // Insights: a two-round trend per question, as a chart and as a table of the same numbers.
    await page
      .getByRole('navigation', { name: 'Loop screens' })
      .getByRole('link', { name: 'Insights', exact: true })
      .click();
    await expect(page).toHaveURL(new RegExp(`/admin/loop-insights/${loopId}/overview$`));
    await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toContainText('Loop Insights');
    const week = page.getByRole('img', { name: /^How was your week overall\?: mean by round/ });
    await expect(week).toBeVisible();
    const table = page.getByRole('table', { name: /^How was your week overall\?: mean by round/ });
    await expect(table.getByRole('row')).toHaveCount(3);
    await expect(table.getByRole('row').nth(1)).toContainText('4.0');
    // 4, 3, 5 then 2, 2, 1: a fall of 2.3 points among three answers is larger than the noise.
    await expect(table.getByRole('row').nth(2)).toContainText('1.7');
    await expect(table.getByRole('row').nth(2)).toContainText('Real change');
    const earlier = page.getByRole('region', { name: 'Earlier wordings' });
    await expect(
      earlier.getByRole('img', { name: /^How much progress did you make on what matters most\?/ }),
    ).toBeVisible();
    const reworded = page.getByRole('table', {
      name: /^How much progress did you make on your top priority\?/,
    });
    await expect(reworded.getByRole('row')).toHaveCount(2);
    const participation = page.getByRole('table', { name: /^Participation/ });
    await expect(participation.getByRole('row')).toHaveCount(3);
    await expectAccessible(page);

    // The dashboard lists the loop under 'Loops', linking to its completion status while it runs.
    await page.goto('/admin/dashboard');
    await page.getByRole('button', { name: 'Loops' }).click();
    const card = page.getByRole('article', { name: 'Weekly Pulse' });
    await expect(card.getByRole('link', { name: 'Completion Status' })).toHaveAttribute(
      'href',
      `/admin/completion-status/${loopId}`,
    );
    await expect(page.getByRole('tab', { name: 'Active (1)' })).toBeVisible();
    await expectAccessible(page);
  });

  test("a link scanner's headless browser opening a one-click link records nothing; one tap on 'Send my answer' records that value", async ({
    page,
    browser,
    mailDir,
    baseURL,
  }) => {
    const admin = await signUpAdmin(page, mailDir, { companyName: 'Scanner Co' });
    const member = await addActiveMember(page, mailDir, {
      workspaceId: admin.workspaceId,
      fullName: 'Sky Scanned',
    });
    // Not anonymous, one answer enough: the open round's results show what was recorded.
    const loopId = await launchLoop(page, admin.workspaceId, 'Scanned Pulse', {
      anonymous: false,
      minResponses: 1,
    });
    const link = quickLink(await roundMail(mailDir, member.email, 'Scanned Pulse', 1), 4);
    const answeredBy = async () => {
      const response = await page.request.get(`/api/loops/${loopId}/completion-status`);
      expect(response.status()).toBe(200);
      return ((await response.json()) as { current: { answeredBy: { name: string }[] } }).current.answeredBy;
    };
    /** The first question's answers in the open round: how many, and how many per value 1 to 5. */
    const firstQuestion = async () => {
      const response = await page.request.get(`/api/loops/${loopId}/results`);
      expect(response.status()).toBe(200);
      const body = (await response.json()) as {
        round: { questions: { answers: number; counts: number[] | null }[] };
      };
      const { answers, counts } = body.round.questions[0]!;
      return { answers, counts };
    };

    // The scanner: a browser of its own opens the link, runs the page to the end, and leaves. Its page is
    // visible (headless Chromium says so), so waiting for visibility would not have stopped it.
    const scanner = await inbox(browser, baseURL);
    await scanner.page.goto(link, { waitUntil: 'networkidle' });
    await expect(scanner.page.getByRole('heading', { name: 'Scanned Pulse', level: 1 })).toBeVisible();
    expect(await scanner.page.evaluate(() => document.visibilityState)).toBe('visible');
    await scanner.page.waitForLoadState('networkidle');
    await scanner.close();
    expect(await answeredBy()).toEqual([]);
    expect((await firstQuestion()).answers).toBe(0);

    // The person, on a phone: the link opens with 4 chosen and the button in view; one tap records 4.
    const phone = await inbox(browser, baseURL, {
      viewport: { width: 360, height: 740 },
      hasTouch: true,
      isMobile: true,
    });
    await phone.page.goto(link);
    const send = phone.page.getByRole('button', { name: 'Send my answer' });
    await expect(send).toBeInViewport();
    await expect(phone.page.getByRole('radio', { name: '4', exact: true })).toBeChecked();
    await expect(phone.page.getByText("Nothing is sent until you press 'Send my answer'.")).toBeVisible();
    expect(await sidewaysOverflow(phone.page)).toBeLessThanOrEqual(0);
    await expectAccessible(phone.page);
    expect(await answeredBy()).toEqual([]);
    await send.tap();
    await expect(phone.page.getByText('Your answer 4 to the first question is recorded.')).toBeVisible();
    expect((await answeredBy()).map((person) => person.name)).toEqual(['Sky Scanned']);
    expect(await firstQuestion()).toEqual({ answers: 1, counts: [0, 0, 0, 1, 0] });
    // The other questions stay for later, added to the same answer.
    await expect(phone.page.getByRole('button', { name: 'Submit Answers' })).toBeVisible();
    await phone.close();
  });

  test('from scratch, by keyboard only: build the questions, choose the audience and a first round date, save as a template, launch, pause and stop', async ({
    page,
    mailDir,
  }) => {
    const admin = await signUpAdmin(page, mailDir, { companyName: 'Keys Co' });
    await addActiveMember(page, mailDir, { workspaceId: admin.workspaceId, fullName: 'Kim Keys' });
    const key = (name: string) => page.keyboard.press(name);

    await page.goto('/admin/templates?type=loop');
    await tabTo(page, page.getByRole('link', { name: 'Create Loop from Scratch' }));
    await key('Enter');
    await expect(page).toHaveURL(/\/admin\/configure-loop\/new$/);

    await tabTo(page, page.getByLabel('Title'));
    await page.keyboard.type('Focus Check');
    const first = page.getByRole('group', { name: 'Question 1' });
    await tabTo(page, first.getByLabel('Wording'));
    await page.keyboard.type('How focused were you this week?');
    await tabTo(page, page.getByRole('button', { name: 'Add Question' }));
    await key('Enter');
    const second = page.getByRole('group', { name: 'Question 2' });
    await expect(second.getByLabel('Wording')).toBeFocused();
    await page.keyboard.type('How likely are you to recommend the team?');
    await key('Tab');
    await expect(second.getByLabel('Kind')).toBeFocused();
    await key('ArrowDown');
    await expect(second.getByLabel('Kind')).toHaveValue('enps');
    await tabTo(page, page.getByRole('button', { name: 'Move question 2 up' }));
    await key('Enter');
    await expect(page.getByRole('button', { name: 'Move question 1 down' })).toBeFocused();
    await expect(first.getByLabel('Wording')).toHaveValue('How likely are you to recommend the team?');

    // Chosen members: the radio group by arrow key, a member by Space.
    await tabTo(page, page.getByRole('radio', { name: 'Everyone active in the workspace' }));
    await key('ArrowDown');
    await expect(page.getByRole('radio', { name: 'Chosen members' })).toBeChecked();
    await tabTo(page, page.getByRole('checkbox', { name: /Kim Keys/ }));
    await key('Space');
    await expect(page.getByRole('checkbox', { name: /Kim Keys/ })).toBeChecked();

    // Not anonymous, so one response may show results.
    await tabTo(page, page.getByRole('switch', { name: 'Anonymous answers' }));
    await key('Space');
    await expect(page.getByRole('switch', { name: 'Anonymous answers' })).not.toBeChecked();
    await tabTo(page, page.getByLabel('Minimum responses'));
    await key('Control+a');
    await page.keyboard.type('1');

    // The first round on the first Monday from 1 January 2099, shown in the loop's zone.
    await tabTo(page, page.getByRole('radio', { name: 'Start now' }));
    await key('ArrowDown');
    await tabTo(page, page.getByLabel('First round date'));
    await page.keyboard.type('01012099');
    await expect(page.getByTestId('first-round')).toContainText('Monday 5 January 2099 at 09:00');
    await expectAccessible(page);
    await tabTo(page, page.getByRole('button', { name: 'Save as Template' }));
    await key('Enter');
    await expect(page.getByText('Saved as a workspace template')).toBeVisible();
    await tabTo(page, page.getByRole('button', { name: 'Launch Loop' }));
    await key('Enter');

    await expect(page).toHaveURL(/\/admin\/completion-status\/[0-9a-f-]{36}$/);
    await expect(page.getByRole('heading', { name: 'No round is open' })).toBeVisible();
    await expect(page.getByText(/The next round opens Jan 5, 2099/)).toBeVisible();

    await tabTo(page, page.getByRole('button', { name: 'Pause Loop' }));
    await key('Enter');
    await expect(page.getByRole('status').filter({ hasText: 'This loop is paused' })).toBeVisible();
    await tabTo(page, page.getByRole('button', { name: 'Stop Loop' }));
    await key('Enter');
    const dialog = page.getByRole('dialog', { name: 'Stop this loop?' });
    await expect(dialog).toBeVisible();
    await tabTo(page, dialog.getByRole('button', { name: 'Stop Loop' }));
    await key('Enter');
    await expect(
      page.getByText('This loop has ended. Its results and insights stay available.'),
    ).toBeVisible();

    // A completed loop links to its full results and insights.
    await page.goto('/admin/dashboard?filter=loops&tab=completed');
    const card = page.getByRole('article', { name: 'Focus Check' });
    await expect(card.getByRole('link', { name: 'View Results' })).toBeVisible();
    await expect(card.getByRole('link', { name: 'Insights' })).toBeVisible();

    // The saved template is the workspace's, ready for the next loop.
    await page.goto('/admin/templates?type=loop');
    await expect(page.getByRole('article', { name: 'Focus Check' })).toContainText('Workspace');
  });

  test('reads well at 360 px: the answer page from the e-mail, completion status, results, insights, templates and Configure Loop', async ({
    page,
    browser,
    mailDir,
    baseURL,
  }) => {
    // Six screens, three people answering: over a minute when another spec file runs beside it.
    test.setTimeout(150_000);
    const admin = await signUpAdmin(page, mailDir, { companyName: 'Narrow Co' });
    const members = [
      await addActiveMember(page, mailDir, { workspaceId: admin.workspaceId, fullName: 'Nia Narrow' }),
      await addActiveMember(page, mailDir, { workspaceId: admin.workspaceId, fullName: 'Sam Small' }),
    ];
    const loopId = await launchLoop(page, admin.workspaceId, 'Narrow Pulse');
    await page.setViewportSize({ width: 360, height: 740 });

    for (const [index, person] of [...members, { email: admin.email }].entries()) {
      const reader = await inbox(browser, baseURL);
      await reader.page.setViewportSize({ width: 360, height: 740 });
      await reader.page.goto(answerLink(await roundMail(mailDir, person.email, 'Narrow Pulse', 1)));
      await expect(reader.page.getByRole('button', { name: 'Submit Answers' })).toBeVisible();
      if (index === 0) {
        expect(await sidewaysOverflow(reader.page)).toBeLessThanOrEqual(0);
        await expectAccessible(reader.page);
      }
      await answerAll(reader.page, { scale: 4 - index, text: `Note ${index}` });
      await reader.close();
    }

    await page.goto(`/admin/completion-status/${loopId}`);
    await expect(page.getByTestId('answered')).toHaveText('3 of 3 answered');
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Close Round Now' }).click();
    await page
      .getByRole('dialog', { name: 'Close Round Now?' })
      .getByRole('button', { name: 'Close Round' })
      .click();
    await expect(page.getByRole('heading', { name: 'No round is open' })).toBeVisible();

    await page.goto(`/admin/loop-results/${loopId}`);
    await expect(page.getByTestId('enps-score')).toBeVisible();
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    await expectAccessible(page);

    await page.goto(`/admin/loop-insights/${loopId}/overview`);
    await expect(page.getByRole('img', { name: /^Participation/ })).toBeVisible();
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    await expectAccessible(page);

    // Creating one fits too: the loop templates and Configure Loop.
    await page.goto('/admin/templates?type=loop');
    await expect(page.getByRole('article', { name: 'Weekly Pulse' })).toBeVisible();
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    await page.goto('/admin/configure-loop/new');
    await expect(page.getByRole('button', { name: 'Launch Loop' })).toBeVisible();
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    await expectAccessible(page);
  });
});
