import { linkIn, uniqueEmail } from './support/accounts';
import { wordsIn } from './support/english';
import { expect, expectAccessible, test } from './support/fixtures';
import { launchLoop } from './support/loops';
import { waitForMail } from './support/mail-capture';

/**
 * Issue 34's journey: an admin in Deutsch from the landing page through sign-up (the verification e-mail in
 * German), configure and launch; a participant in Français joining by the link, answering and completing; the
 * results in German, the catalogue's components in each reader's language; a loop answered in Español from its
 * e-mail.
 */
const de = wordsIn('de');
const fr = wordsIn('fr');
const es = wordsIn('es');
const deMail = wordsIn('de', 'server');
const frMail = wordsIn('fr', 'server');
const esMail = wordsIn('es', 'server');

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('a team in Munich, Lyon and Madrid: sign-up, configure and launch in German, answer in French, results in German, a loop in Spanish', async ({
  browser,
  baseURL,
  mailDir,
}) => {
  test.setTimeout(240_000);
  const munich = await browser.newContext({ baseURL, locale: 'de-DE' });
  const page = await munich.newPage();

  // The landing page, then sign-up, in German from the first paint.
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await page
    .getByRole('link', { name: de.t('landing.getEarlyAccess') })
    .first()
    .click();
  await expect(page.getByRole('heading', { name: de.t('auth.signupTitle') })).toBeVisible();
  const email = uniqueEmail('anna');
  await page.getByLabel(de.t('auth.fullName')).fill('Anna Admin');
  await page.getByLabel(de.t('auth.workEmail')).fill(email);
  await page.getByLabel(de.t('auth.yourRole')).fill('Leitung Personal');
  await page.getByLabel(de.t('common.password'), { exact: true }).fill('e2e-password-123');
  await page.getByLabel(de.t('auth.confirmPassword')).fill('e2e-password-123');
  await page.getByLabel(de.t('auth.companyName')).fill('Team München');
  await page.getByLabel(de.t('auth.companySize')).selectOption('11-50');
  await page.locator('#accept-terms').click();
  await expectAccessible(page);
  await page.getByRole('button', { name: de.t('auth.createWorkspace') }).click();
  await expect(page.getByRole('heading', { name: de.t('auth.checkEmailTitle') })).toBeVisible();

  // The verification e-mail in German.
  const verification = await waitForMail(
    mailDir,
    email,
    new RegExp(escape(deMail.t('mail.verification.subject'))),
  );
  await page.goto(linkIn(verification.text));
  await expect
    .poll(async () => {
      const me = await page.request.get('/api/me');
      return ((await me.json()) as { user?: { setupStatus?: string } }).user?.setupStatus;
    })
    .toBe('completed');

  // Configure from the catalogue: its components in German; launch.
  await page.goto('/admin/templates?type=health-check');
  await page
    .getByRole('article', { name: de.t('catalogue.template.title') })
    .getByRole('link', { name: de.t('templates.useLabel', { title: de.t('catalogue.template.title') }) })
    .click();
  await expect(page.getByRole('heading', { name: de.t('healthChecks.configureTitle') })).toBeVisible();
  await expect(page.getByRole('switch', { name: de.t('catalogue.c1.title') })).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel(de.t('healthChecks.title'), { exact: true }).fill('Quartals-Check');
  await page.getByRole('tab', { name: de.t('healthChecks.tabSettings') }).click();
  await page.getByLabel(de.t('healthChecks.minResponses')).fill('1');
  await page.getByRole('tab', { name: de.t('healthChecks.tabLaunch') }).click();
  await page.getByRole('button', { name: de.t('healthChecks.launch') }).click();
  const share = page.getByRole('dialog', { name: de.t('healthChecks.share') });
  const joinUrl = await share.getByLabel(de.t('healthChecks.joinLink')).inputValue();
  const checkId = /\/join\/([0-9a-f-]{36})$/.exec(joinUrl)?.[1] ?? '';
  expect(checkId).not.toBe('');
  const me = (await (await page.request.get('/api/me')).json()) as { user: { activeWorkspaceId: string } };
  const workspaceId = me.user.activeWorkspaceId;

  // A participant in Lyon, in French: the join link, sign-up, the e-mail and the first component in French.
  const lyon = await browser.newContext({ baseURL, locale: 'fr-FR' });
  const participant = await lyon.newPage();
  await participant.goto(joinUrl);
  await expect(participant.getByRole('heading', { name: fr.t('participation.signup.title') })).toBeVisible();
  const claire = uniqueEmail('claire');
  await participant.getByLabel(fr.t('participation.signup.fullName')).fill('Claire Participante');
  await participant.getByLabel(fr.t('common.email')).fill(claire);
  await participant.getByLabel(fr.t('common.password'), { exact: true }).fill('e2e-password-456');
  await participant.getByRole('button', { name: fr.t('participation.signup.submit') }).click();
  const welcome = await waitForMail(
    mailDir,
    claire,
    new RegExp(escape(frMail.t('mail.verification.subject'))),
  );
  await participant.goto(linkIn(welcome.text));
  await expect(participant).toHaveURL(new RegExp(`/health-check/${checkId}/voting$`));
  await expect(participant.locator('html')).toHaveAttribute('lang', 'fr');
  await expect(participant.getByRole('heading', { name: fr.t('catalogue.c1.title') })).toBeVisible();
  await expect(participant.getByText(fr.t('catalogue.newCheck.description'))).toBeVisible();
  await expectAccessible(participant);

  // Every component rated Healthy, then submitted: the French words of the rating and the buttons.
  const total = 29;
  for (let step = 1; step <= total; step += 1) {
    await participant
      .getByRole('radio', { name: new RegExp(`^${escape(fr.t('participation.ratingHealthy'))}`) })
      .click();
    if (step < total) await participant.getByRole('button', { name: fr.t('common.next') }).click();
  }
  await participant.getByRole('button', { name: fr.t('participation.flow.submit') }).click();
  await expect(
    participant.getByRole('heading', { name: fr.t('participation.complete.title') }),
  ).toBeVisible();

  // The admin in Munich ends the collection (German words), and reads the results in German: the components and
  // the default description they launched with, stored as the catalogue's and said in each reader's language.
  await page.goto(`/admin/health-check/${checkId}/manage`);
  await page.getByRole('button', { name: de.t('healthChecks.phaseAction.vote') }).click();
  await page
    .getByRole('dialog')
    .getByRole('button', { name: de.t('healthChecks.confirm') })
    .click();
  await expect(page.getByRole('dialog')).toBeHidden();
  await page.goto(`/admin/health-check/${checkId}/results`);
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.getByRole('heading', { name: 'Quartals-Check' })).toBeVisible();
  await expect(page.getByText(de.t('catalogue.newCheck.description'))).toBeVisible();
  await expect(page.getByText(de.t('catalogue.c1.title')).first()).toBeVisible();
  await expectAccessible(page);

  // A teammate in Madrid, who chose Español, answers a loop from its e-mail. The German admin launched it with
  // the catalogue's questions as they saw them, in German; the e-mail and the page say them in Spanish.
  const madrid = await browser.newContext({ baseURL, locale: 'es-ES' });
  const pablo = uniqueEmail('pablo');
  const invite = await page.request.post(`/api/workspaces/${workspaceId}/invitations`, {
    data: { email: pablo, role: 'Ingeniero' },
  });
  expect(invite.status(), await invite.text()).toBe(201);
  const invitation = await waitForMail(mailDir, pablo, /./);
  const token = /\/invite\/([A-Za-z0-9_-]+)/.exec(invitation.text)?.[1] ?? '';
  const accepted = await madrid.request.post(`/api/invitations/${token}/accept-signup`, {
    data: { fullName: 'Pablo Miembro', password: 'e2e-password-789', confirmPassword: 'e2e-password-789' },
  });
  expect(accepted.status(), await accepted.text()).toBe(200);
  expect((await madrid.request.put('/api/account/language', { data: { language: 'es' } })).status()).toBe(
    200,
  );
  await madrid.clearCookies();

  await launchLoop(page, workspaceId, 'Pulso del equipo', {
    description: '',
    questions: [
      {
        kind: 'scale',
        text: de.t('loopCatalogue.wp1.text'),
        lowLabel: de.t('loopCatalogue.wp1.lowLabel'),
        highLabel: de.t('loopCatalogue.wp1.highLabel'),
      },
    ],
    anonymous: false,
    minResponses: 1,
    reminder: false,
  });
  const round = await waitForMail(
    mailDir,
    pablo,
    new RegExp(escape(esMail.t('mail.loopRound.subject', { title: 'Pulso del equipo', number: 1 }))),
  );
  expect(round.text).toContain(es.t('loopCatalogue.wp1.text'));
  const answerUrl = /https?:\/\/\S+\/loop-answer\/[A-Za-z0-9_.-]+(?=\s|$)/m.exec(round.text)?.[0] ?? '';
  const answering = await madrid.newPage();
  await answering.goto(answerUrl);
  await expect(answering.locator('html')).toHaveAttribute('lang', 'es');
  await expect(answering.getByText(es.t('loopCatalogue.wp1.text'))).toBeVisible();
  await expectAccessible(answering);
  await answering
    .getByRole('group')
    .first()
    .getByRole('radio', { name: /^4(,|$)/ })
    .check();
  await answering.getByRole('button', { name: es.t('loopAnswer.submit') }).click();
  await expect(answering.getByRole('heading', { name: es.t('loopAnswer.thanks') })).toBeVisible();

  await munich.close();
  await lyon.close();
  await madrid.close();
});
