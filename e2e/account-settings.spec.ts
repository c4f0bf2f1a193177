import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { signUpAdmin, uniqueEmail } from './support/accounts';
import { expect, expectAccessible, test } from './support/fixtures';
import { waitForMail, type CapturedMail } from './support/mail-capture';
import { codeAt, enrolAuthenticator } from './support/two-factor';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

async function mailsTo(dir: string, to: string) {
  const mails: CapturedMail[] = [];
  for (const file of await readdir(dir)) {
    try {
      const mail = JSON.parse(await readFile(path.join(dir, file), 'utf8')) as CapturedMail;
      if (mail.to.includes(to.toLowerCase())) mails.push(mail);
    } catch {
      // a message still being written; it is not the one this test looks for
    }
  }
  return mails;
}

/** Invites someone as the admin signed in on `page` and accepts as them through the API; returns their context. */
async function joinTeam(
  page: Page,
  mailDir: string,
  workspaceId: string,
  fullName: string,
  options: { admin?: boolean } = {},
) {
  const email = uniqueEmail('joiner');
  const invite = await page.request.post(`/api/workspaces/${workspaceId}/invitations`, {
    data: { email, role: 'Engineer', admin: options.admin ?? false },
  });
  expect(invite.status()).toBe(201);
  const token = /\/invite\/([A-Za-z0-9_-]+)/.exec((await waitForMail(mailDir, email, /invited/)).text)?.[1];
  const context = await page
    .context()
    .browser()!
    .newContext({ baseURL: new URL(page.url()).origin });
  const accepted = await context.request.post(`/api/invitations/${token}/accept-signup`, {
    data: { fullName, password: 'joiner-password-1', confirmPassword: 'joiner-password-1' },
  });
  expect(accepted.status(), await accepted.text()).toBe(200);
  return { email, context };
}

/** After 'Delete my account': the login page says so, and the account's password no longer signs in. */
async function expectAccountGone(page: Page, email: string, password: string) {
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Your account has been deleted').first()).toBeVisible();
  const login = await page.request.post('/api/login', { data: { email, password } });
  expect(login.status()).toBe(401);
}

test.describe('account settings', () => {
  test('profile and photo are saved and still there after reload', async ({ page, mailDir }) => {
    await signUpAdmin(page, mailDir, { fullName: 'Alex Admin' });
    await page.goto('/admin/account-settings');
    await expect(page.getByRole('heading', { name: 'Profile' })).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveAttribute('readonly', '');
    // Security is a screen of its own now (issue 15), no longer 'Soon'.
    await expect(page.getByRole('link', { name: 'Security' })).toHaveAttribute(
      'href',
      '/admin/account-settings/security',
    );
    await expect(page.getByText('Soon')).toHaveCount(0);
    await expectAccessible(page);

    await page.getByLabel('Full Name').fill('Ada Lovelace');
    await page.getByLabel('Role').fill('Chief Analyst');
    await page.getByLabel('Team/Department').fill('Engines');
    await page.getByLabel('Bio').fill('Writes the first programs.');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Changes saved successfully').first()).toBeVisible();

    await page
      .getByLabel('Change photo')
      .setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not an image') });
    await expect(page.getByText('Failed to update profile photo')).toBeVisible();
    await expect(page.getByText('The photo must be a PNG, JPEG, WebP or GIF image')).toBeVisible();
    await page
      .getByLabel('Change photo')
      .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
    await expect(page.getByText('Profile photo updated successfully')).toBeVisible();
    await expect(page.getByTestId('profile-photo')).toHaveAttribute('src', /^\/api\/avatars\//);

    await page.reload();
    await expect(page.getByLabel('Full Name')).toHaveValue('Ada Lovelace');
    await expect(page.getByLabel('Role')).toHaveValue('Chief Analyst');
    await expect(page.getByLabel('Team/Department')).toHaveValue('Engines');
    await expect(page.getByLabel('Bio')).toHaveValue('Writes the first programs.');
    const src = await page.getByTestId('profile-photo').getAttribute('src');
    const image = await page.request.get(src!);
    expect(image.headers()['content-type']).toBe('image/png');
    expect(Buffer.from(await image.body()).equals(PNG)).toBe(true);
  });

  test('Download my data saves a JSON file of the person, from the keyboard, and says when it fails', async ({
    page,
    mailDir,
  }) => {
    const { email } = await signUpAdmin(page, mailDir, { fullName: 'Dana Download' });
    await page.goto('/admin/account-settings');
    await expect(page.getByRole('heading', { name: 'Your data' })).toBeVisible();
    const button = page.getByRole('button', { name: 'Download my data' });
    await expect(button).toHaveAccessibleDescription(/everything Pulsecheck stores about you/);
    await expectAccessible(page);

    await button.focus();
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    expect(download.suggestedFilename()).toMatch(/^pulsecheck-data-\d{4}-\d{2}-\d{2}\.json$/);
    const file = JSON.parse(await readFile(await download.path(), 'utf8')) as {
      profile: { email: string; fullName: string };
      memberships: { organization: string; access: string }[];
    };
    expect(file.profile).toMatchObject({ email, fullName: 'Dana Download' });
    expect(file.memberships).toEqual([
      expect.objectContaining({ organization: 'Rocket Teams', access: 'admin' }),
    ]);
    await expect(button).toBeEnabled();

    // Signed out behind the page's back: the download fails and the card says so.
    await page.context().clearCookies();
    await button.click();
    await expect(page.getByRole('alert').filter({ hasText: 'Failed to download your data' })).toBeVisible();
    await expect(button).toBeEnabled();
  });

  test('the password changes with the spec messages, and the new one logs in', async ({
    page,
    browser,
    mailDir,
  }) => {
    const admin = await signUpAdmin(page, mailDir);
    await page.goto('/admin/account-settings');
    await page.getByRole('link', { name: 'Password' }).click();
    await expect(page.getByRole('heading', { name: 'Password' })).toBeVisible();
    await expectAccessible(page);
    const current = page.getByLabel('Current Password', { exact: true });
    const next = page.getByLabel('New Password', { exact: true });
    const confirm = page.getByLabel('Confirm New Password', { exact: true });
    const submit = page.getByRole('button', { name: 'Update Password' });

    await submit.click();
    await expect(page.getByText('All fields are required').first()).toBeVisible();
    await current.fill(admin.password);
    await next.fill('another-password-1');
    await confirm.fill('another-password-2');
    await submit.click();
    await expect(page.getByText('New passwords do not match').first()).toBeVisible();
    await next.fill('short');
    await confirm.fill('short');
    await submit.click();
    await expect(page.getByText('Password must be at least 8 characters long').first()).toBeVisible();
    await current.fill('not-the-password');
    await next.fill('another-password-1');
    await confirm.fill('another-password-1');
    await submit.click();
    await expect(page.getByText('Current password is incorrect').first()).toBeVisible();

    await expect(next).toHaveAttribute('type', 'password');
    await page.getByRole('button', { name: 'Show new password' }).click();
    await expect(next).toHaveAttribute('type', 'text');
    await page.getByRole('button', { name: 'Hide new password' }).click();
    await expect(next).toHaveAttribute('type', 'password');

    // 'Also remove my passkeys and sign out everywhere else' (issue 30): offered, labelled, off until ticked.
    const alsoPasskeys = page.getByRole('checkbox', {
      name: 'Also remove my passkeys and sign out everywhere else',
    });
    await expect(alsoPasskeys).not.toBeChecked();
    await alsoPasskeys.focus();
    await page.keyboard.press('Space');
    await expect(alsoPasskeys).toBeChecked();
    await expectAccessible(page);

    await current.fill(admin.password);
    await submit.click();
    await expect(page.getByText('Password updated successfully')).toBeVisible();
    await expect(current).toHaveValue('');
    await expect(next).toHaveValue('');
    await expect(confirm).toHaveValue('');

    const fresh = await browser.newContext({ baseURL: new URL(page.url()).origin });
    const login = await fresh.newPage();
    await login.goto('/login');
    await login.getByLabel('Email').fill(admin.email);
    await login.getByLabel('Password').fill(admin.password);
    await login.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(login.getByRole('alert')).toBeVisible();
    await login.getByLabel('Password').fill('another-password-1');
    await login.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(login).toHaveURL(/\/admin\/dashboard$/);
    await fresh.close();
  });

  test('notification settings load, save, and a switched-off e-mail is no longer sent', async ({
    page,
    mailDir,
  }) => {
    const admin = await signUpAdmin(page, mailDir, { companyName: 'Quiet Co' });
    await page.goto('/admin/account-settings');
    await page.getByRole('link', { name: 'Notifications' }).click();
    await expect(page).toHaveURL(/\/admin\/account-settings\/notifications$/);
    const emailCard = page.getByRole('region', { name: 'Email' });
    const slackCard = page.getByRole('region', { name: 'Slack' });
    await expect(emailCard.getByRole('switch', { name: 'Weekly Digest' })).toBeChecked();
    await expect(emailCard.getByRole('switch', { name: 'Team Updates' })).not.toBeChecked();
    await expect(slackCard.getByLabel('Channel')).toHaveValue('#survey-updates');
    await expectAccessible(page);
    await slackCard.getByRole('switch', { name: 'Enable Slack notifications' }).click();
    await expect(slackCard.getByLabel('Channel')).toBeHidden();
    await slackCard.getByRole('switch', { name: 'Enable Slack notifications' }).click();
    await slackCard.getByLabel('Incoming webhook URL').fill('http://not-secure.example.com/hook');
    await page.getByRole('button', { name: 'Save Changes' }).first().click();
    await expect(slackCard.getByText(/must be a Slack incoming webhook/)).toBeVisible();
    await slackCard.getByLabel('Incoming webhook URL').fill('');

    await emailCard.getByRole('switch', { name: 'Team Updates' }).click();
    await page.getByRole('button', { name: 'Save Changes' }).first().click();
    await expect(page.getByText('Notification settings saved successfully')).toBeVisible();
    await page.reload();
    await expect(
      page.getByRole('region', { name: 'Email' }).getByRole('switch', { name: 'Team Updates' }),
    ).toBeChecked();

    // On: the admin is told by e-mail when someone joins.
    const first = await joinTeam(page, mailDir, admin.workspaceId, 'Fay First');
    await waitForMail(mailDir, admin.email, /Team update: Fay First joined Quiet Co/);
    // The first joiner wants team update e-mails too, so their e-mail proves the next event was delivered.
    const prefs = (await (
      await first.context.request.get('/api/account/notification-preferences')
    ).json()) as {
      preferences: { emailNotifications: Record<string, boolean> };
    };
    prefs.preferences.emailNotifications.teamUpdates = true;
    expect(
      (
        await first.context.request.put('/api/account/notification-preferences', { data: prefs.preferences })
      ).status(),
    ).toBe(200);

    // Off: switched in the screen, the next join reaches the first joiner but not the admin.
    await page.getByRole('region', { name: 'Email' }).getByRole('switch', { name: 'Team Updates' }).click();
    await page.getByRole('button', { name: 'Save Changes' }).first().click();
    await expect(page.getByText('Notification settings saved successfully')).toBeVisible();
    const second = await joinTeam(page, mailDir, admin.workspaceId, 'Sid Second');
    await waitForMail(mailDir, first.email, /Team update: Sid Second joined Quiet Co/);
    const adminMails = await mailsTo(mailDir, admin.email);
    expect(adminMails.filter((m) => m.subject.includes('Sid Second'))).toHaveLength(0);
    expect(adminMails.filter((m) => m.subject.includes('Fay First'))).toHaveLength(1);
    await first.context.close();
    await second.context.close();
  });

  test('reads well at 360 px', async ({ page, mailDir }) => {
    await signUpAdmin(page, mailDir);
    await page.setViewportSize({ width: 360, height: 740 });
    for (const target of [
      '/admin/account-settings',
      '/admin/account-settings?tab=password',
      '/admin/account-settings/notifications',
      '/admin/account-settings/security',
    ]) {
      await page.goto(target);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByRole('status').filter({ hasText: 'Loading' })).toHaveCount(0);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, target).toBeLessThanOrEqual(0);
      await expectAccessible(page);
    }
  });

  test('the unsubscribe link of a reminder turns reminders off without signing in', async ({
    page,
    browser,
    mailDir,
  }) => {
    await signUpAdmin(page, mailDir);
    const visitor = await browser.newContext({ baseURL: new URL(page.url()).origin });
    const other = await visitor.newPage();
    await other.goto('/unsubscribe?token=forged.token');
    await expect(other.getByRole('alert')).toContainText('This unsubscribe link is invalid.');
    await expectAccessible(other);
    await visitor.close();
  });

  test('Delete my account: a member confirms with the password and cannot sign in again', async ({
    page,
    mailDir,
  }) => {
    const admin = await signUpAdmin(page, mailDir);
    const joiner = await joinTeam(page, mailDir, admin.workspaceId, 'Dee Leaving');
    const leaving = await joiner.context.newPage();
    await leaving.setViewportSize({ width: 360, height: 740 });
    await leaving.goto('/admin/account-settings');
    await expect(leaving.getByRole('heading', { name: 'Delete account' })).toBeVisible();
    await expect(
      leaving.getByText("comments you wrote under your name then show 'Former member'"),
    ).toBeVisible();
    await leaving.getByRole('button', { name: 'Delete my account' }).click();
    const dialog = leaving.getByRole('dialog', { name: 'Delete your account?' });
    await expect(dialog).toBeVisible();
    await expectAccessible(leaving);
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('Enter your password to confirm');
    await dialog.getByLabel('Your password').fill('not-the-password');
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('Password is incorrect');
    await dialog.getByLabel('Your password').fill('joiner-password-1');
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await expectAccountGone(leaving, joiner.email, 'joiner-password-1');
    await joiner.context.close();
  });

  test('Delete organisation: the owner types its name and the password; its members who belong nowhere else go too', async ({
    page,
    mailDir,
  }) => {
    const companyName = `Short Lived ${Date.now()}`;
    const admin = await signUpAdmin(page, mailDir, { companyName });
    const joiner = await joinTeam(page, mailDir, admin.workspaceId, 'Only Here');
    await page.goto('/admin/account-settings');
    await expect(page.getByText(`You own ${companyName}.`)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Delete my account' })).toBeDisabled();
    await page.getByRole('button', { name: 'Delete organisation' }).click();
    const dialog = page.getByRole('dialog', { name: `Delete ${companyName}?` });
    await expect(dialog).toContainText('Members who belong to no other organisation lose their account.');
    await expectAccessible(page);
    const confirm = dialog.getByRole('button', { name: 'Delete organisation' });
    await expect(confirm).toBeDisabled();
    await dialog.getByLabel(`Type ${companyName} to confirm`).fill(companyName);
    await dialog.getByLabel('Your password').fill(admin.password);
    await confirm.click();
    await expect(page.getByText('The organisation has been deleted').first()).toBeVisible();
    // The owner starts again with a new, empty organisation.
    await expect(page).toHaveURL(/\/(auth\/admin-confirmation|admin\/dashboard)$/);
    expect((await joiner.context.request.get('/api/me')).status()).toBe(401);
    await joiner.context.close();
  });
  test('Delete my account with a code of the authenticator app instead of the password', async ({
    page,
    mailDir,
  }) => {
    const admin = await signUpAdmin(page, mailDir);
    const joiner = await joinTeam(page, mailDir, admin.workspaceId, 'Tess Two-Factor');
    const leaving = await joiner.context.newPage();
    const { key, used } = await enrolAuthenticator(leaving, 'joiner-password-1');
    await leaving.setViewportSize({ width: 360, height: 740 });
    await leaving.goto('/admin/account-settings');
    await leaving.getByRole('button', { name: 'Delete my account' }).click();
    const dialog = leaving.getByRole('dialog', { name: 'Delete your account?' });
    const choice = dialog.getByRole('group', { name: 'Confirm with' });
    await expect(choice.getByRole('radio', { name: 'My password' })).toBeChecked();
    // By keyboard: the arrow key chooses the code.
    await choice.getByRole('radio', { name: 'My password' }).focus();
    await leaving.keyboard.press('ArrowRight');
    await expect(choice.getByRole('radio', { name: 'A code from my authenticator app' })).toBeChecked();
    const code = dialog.getByLabel('Code from your authenticator app');
    await expect(code).toHaveAttribute('inputmode', 'numeric');
    await expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    await expectAccessible(leaving);
    expect(await leaving.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    // The code that turned two-factor sign-in on is used up: refused, with the server's words on the field.
    await code.fill(used);
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await expect(dialog.getByRole('alert')).toHaveText(
      'The code is wrong or was used already: enter the current one',
    );
    await code.fill(codeAt(key, 1));
    await code.press('Enter');
    await expectAccountGone(leaving, joiner.email, 'joiner-password-1');
    await joiner.context.close();
  });

  test('Transfer ownership: the owner hands the organisation to another admin, who owns it; the former owner can then leave', async ({
    page,
    mailDir,
  }) => {
    const companyName = `Handed On ${Date.now()}`;
    const owner = await signUpAdmin(page, mailDir, { companyName });
    const heir = await joinTeam(page, mailDir, owner.workspaceId, 'Hana Heir', { admin: true });
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto('/admin/account-settings');
    await expect(page.getByText(`You own ${companyName}.`)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Delete my account' })).toBeDisabled();
    await expect(page.getByLabel('New owner')).toHaveText(`Hana Heir (${heir.email})`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.getByRole('button', { name: 'Transfer ownership' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: `Transfer ${companyName} to Hana Heir?` });
    await expect(dialog).toContainText('You stay an admin of its workspaces.');
    await expectAccessible(page);
    // The same proof as deleting (issue 30): a wrong password hands nothing over.
    await dialog.getByLabel('Your password').fill('not-the-password');
    await dialog.getByRole('button', { name: 'Transfer ownership' }).click();
    await expect(dialog.getByText('Password is incorrect')).toBeVisible();
    await dialog.getByLabel('Your password').fill(owner.password);
    await dialog.getByRole('button', { name: 'Transfer ownership' }).click();
    await expect(page.getByText('Hana Heir now owns the organisation').first()).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(`You own ${companyName}.`)).toBeHidden();

    // The heir now owns it: their own settings say so, and they would have to hand it on before leaving.
    const heirPage = await heir.context.newPage();
    await heirPage.goto('/admin/account-settings');
    await expect(heirPage.getByText(`You own ${companyName}.`)).toBeVisible();
    await expect(heirPage.getByRole('button', { name: 'Delete my account' })).toBeDisabled();

    // The former owner can now delete their account.
    await page.getByRole('button', { name: 'Delete my account' }).click();
    const leave = page.getByRole('dialog', { name: 'Delete your account?' });
    await leave.getByLabel('Your password').fill(owner.password);
    await leave.getByRole('button', { name: 'Delete my account' }).click();
    await expectAccountGone(page, owner.email, owner.password);
    expect((await heir.context.request.get('/api/me')).status()).toBe(200);
    await heir.context.close();
  });
});
