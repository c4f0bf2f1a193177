import { randomBytes } from 'node:crypto';
import { signUpAdmin, uniqueEmail } from './support/accounts';
import { expect, expectAccessible, test } from './support/fixtures';
import { waitForMail } from './support/mail-capture';

/** A 1x1 PNG: a real image, so the browser shows it. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const TEAL = '#0f766e';

test.describe('custom branding (issue 32 item 10)', () => {
  test("an admin brands the organisation; a participant's join page and invitation e-mail show it", async ({
    page,
    mailDir,
    browser,
    baseURL,
  }) => {
    const admin = await signUpAdmin(page, mailDir, { companyName: 'Harbour Labs' });

    await page.goto('/admin/account-settings');
    await page
      .getByRole('navigation', { name: 'Account settings' })
      .getByRole('link', { name: 'Organisation' })
      .click();
    await expect(page).toHaveURL(/\/admin\/account-settings\/organisation$/);
    await expect(page.getByRole('heading', { name: 'Branding' })).toBeVisible();
    await expectAccessible(page);

    // The logo: chosen through its labelled file field, then shown as a preview named after the organisation.
    await page
      .getByLabel('Upload logo')
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
    const preview = page.getByRole('img', { name: 'Harbour Labs logo' });
    await expect(preview).toBeVisible();
    await expect(page.getByLabel('Replace logo')).toBeAttached();

    // The colour: typed, checked as it is typed with the shared contrast messages, saved by keyboard.
    const hex = page.getByLabel('Accent colour (#rrggbb)');
    await hex.fill('#ffff00');
    await expect(page.getByTestId('contrast-message')).toContainText('choose a darker colour');
    await expect(page.getByRole('button', { name: 'Save branding' })).toBeDisabled();
    await hex.fill(TEAL);
    await expect(page.getByTestId('contrast-message')).toContainText(':1: readable');
    await expect(page.getByLabel('Accent colour picker')).toHaveValue(TEAL);
    await page.getByRole('button', { name: 'Save branding' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('status').filter({ hasText: 'Branding saved' }).first()).toBeVisible();
    await expectAccessible(page);

    // At 360 px the card fits without sideways scrolling.
    await page.setViewportSize({ width: 360, height: 800 });
    await expect(page.getByRole('heading', { name: 'Branding' })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.setViewportSize({ width: 1280, height: 800 });

    // A check launched with an invitation: the e-mail carries the logo (an absolute URL of the app) and the colour.
    const invitee = uniqueEmail('branded-participant');
    const template = (await (await page.request.get('/api/templates/new')).json()) as {
      template: { id: string; components: { id: string }[] };
    };
    const launched = await page.request.post('/api/health-checks', {
      data: {
        workspaceId: admin.workspaceId,
        templateId: template.template.id,
        title: 'Harbour Health',
        description: 'Launched by the branding test',
        settings: {
          minResponses: 1,
          allowAnonymous: true,
          enableComments: true,
          votesPerPerson: 5,
          showResultsAfterVoting: true,
        },
        enabledComponentIds: template.template.components.slice(0, 3).map((c) => c.id),
        teamEmails: [invitee],
        launchKey: randomBytes(8).toString('hex'),
      },
    });
    expect(launched.status(), await launched.text()).toBe(201);
    const { joinUrl } = (await launched.json()) as { joinUrl: string };
    const mail = await waitForMail(mailDir, invitee, /Health Check Invitation/);
    const logoUrl = new RegExp(
      `<img src="${baseURL}/api/organization-logos/[0-9a-f-]{36}" alt="Harbour Labs logo"`,
    );
    expect(mail.html).toMatch(logoUrl);
    expect(mail.html).toContain(`background:${TEAL}`);
    expect(mail.text).not.toContain('organization-logos');
    expect(mail.text).not.toContain(TEAL);
    // The e-mail's logo URL serves the image to anyone (mail clients fetch it signed out).
    const src = /<img src="([^"]+)"/.exec(mail.html)![1]!;
    const outsider = await browser.newContext();
    const image = await outsider.request.get(src);
    expect(image.status()).toBe(200);
    expect(image.headers()['content-type']).toBe('image/png');
    await outsider.close();

    // The participant, signed out, follows the join link: the sign-up to join shows the logo and the colour.
    const context = await browser.newContext({ baseURL });
    const participant = await context.newPage();
    await participant.goto(joinUrl);
    await expect(participant).toHaveURL(/\/signup\//);
    const logo = participant.getByRole('img', { name: 'Harbour Labs logo' });
    await expect(logo).toBeVisible();
    expect(await logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
    const join = participant.getByRole('button', { name: 'Join Health Check' });
    await expect(join).toHaveCSS('background-color', 'rgb(15, 118, 110)');
    await expect(join).toHaveCSS('color', 'rgb(255, 255, 255)');
    await expectAccessible(participant);
    await context.close();
  });
});
