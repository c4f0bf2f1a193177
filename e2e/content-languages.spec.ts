import { addActiveMember, signUpAdmin } from './support/accounts';
import { wordsIn } from './support/english';
import { expect, expectAccessible, test } from './support/fixtures';
import { launchLoop } from './support/loops';
import { waitForMail } from './support/mail-capture';

/**
 * Issue 34 item 4, content in several languages: an admin adds a German translation to a question of their own on
 * Configure Loop; a teammate reading German answers it in German, one reading French sees the loop's English with a
 * note saying so (and the text marked lang="en").
 */
const fr = wordsIn('fr');
const QUESTION = 'How focused were you this week?';
const GERMAN = 'Wie konzentriert waren Sie diese Woche?';

test('an admin translates a loop question into German: a German reader sees it, a French one the English with a note', async ({
  page,
  browser,
  baseURL,
  mailDir,
}) => {
  test.setTimeout(120_000);
  const admin = await signUpAdmin(page, mailDir, { fullName: 'Alex Admin', companyName: 'Polyglot Co' });
  const greta = await addActiveMember(page, mailDir, {
    workspaceId: admin.workspaceId,
    fullName: 'Greta Member',
  });
  const louis = await addActiveMember(page, mailDir, {
    workspaceId: admin.workspaceId,
    fullName: 'Louis Member',
  });
  const loopId = await launchLoop(page, admin.workspaceId, 'Focus pulse', {
    language: 'en',
    questions: [{ kind: 'scale', text: QUESTION, lowLabel: 'Scattered', highLabel: 'Deep focus' }],
    anonymous: false,
    minResponses: 1,
  });

  // Configure Loop: 'Add a translation' under the question, German, its wording and both ends, saved.
  // On a phone's width: the question, its translations and the form fit without scrolling sideways.
  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto(`/admin/configure-loop/${loopId}`);
  const question = page.getByRole('group', { name: 'Question 1', exact: true });
  await question.getByRole('button', { name: 'Add a translation of question 1' }).click();
  const form = question.getByRole('group', { name: 'Translation of question 1' });
  await form.getByLabel('Language', { exact: true }).selectOption('de');
  await form.getByLabel('Wording in German').fill(GERMAN);
  await form.getByLabel('Label of 1 in German').fill('Zerstreut');
  await form.getByLabel('Label of 5 in German').fill('Voll bei der Sache');
  await expectAccessible(page);
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);
  // Enter saves the translation, not the loop.
  await page.keyboard.press('Enter');
  await expect(question.getByRole('list', { name: 'Translations of question 1' })).toContainText(GERMAN);
  await expect(question.getByRole('button', { name: 'Add a translation of question 1' })).toBeFocused();
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/completion-status/${loopId}`));

  const answerLink = async (email: string) => {
    const mail = await waitForMail(mailDir, email, /Focus pulse: round 1 is open/);
    return /https?:\/\/\S+\/loop-answer\/[A-Za-z0-9_.-]+(?=\s|$)/m.exec(mail.text)?.[0] ?? '';
  };

  // Greta reads German: the question and its ends in German, no note.
  const munich = await browser.newContext({ baseURL, locale: 'de-DE' });
  const german = await munich.newPage();
  await german.goto(await answerLink(greta.email));
  const germanQuestion = german.getByRole('group', { name: GERMAN });
  await expect(germanQuestion).toBeVisible();
  await expect(germanQuestion.getByRole('radio', { name: /^1, Zerstreut$/ })).toBeVisible();
  await expect(german.getByText(QUESTION)).toHaveCount(0);

  // Louis reads French: there is no French translation, so the English as written, marked and explained.
  const lyon = await browser.newContext({ baseURL, locale: 'fr-FR' });
  const french = await lyon.newPage();
  await french.goto(await answerLink(louis.email));
  await expect(french.locator('html')).toHaveAttribute('lang', 'fr');
  await expect(french.locator('[lang="en"]', { hasText: QUESTION })).toBeVisible();
  await expect(french.getByText(fr.t('loops.shownInDefaultLanguage', { language: 'anglais' }))).toBeVisible();
  await expectAccessible(french);

  await munich.close();
  await lyon.close();
});
