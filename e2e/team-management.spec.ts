import { uniqueEmail, signUpAdmin } from './support/accounts';
import { expect, expectAccessible, test } from './support/fixtures';
import { waitForMail } from './support/mail-capture';
import { codeAt, enrolAuthenticator } from './support/two-factor';

const inviteLink = (text: string) => {
  const link = /https?:\/\/\S+\/invite\/[A-Za-z0-9_-]+/.exec(text)?.[0];
  if (!link) throw new Error('no invitation link in the e-mail');
  return link;
};

test.describe('team management', () => {
  test('an admin invites a member, who accepts from the e-mail and shows as active', async ({
    page,
    browser,
    mailDir,
  }) => {
    await signUpAdmin(page, mailDir, { companyName: 'Invite Co' });
    await page.goto('/admin/team-management');
    await expect(page.getByRole('heading', { name: 'Team Management' })).toBeVisible();
    await expect(page.getByTestId('member-row')).toHaveCount(1);
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Invite Team Member' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite Team Member' });
    await dialog.getByRole('button', { name: 'Send Invitation' }).click();
    await expect(dialog.getByText('Email is required')).toBeVisible();
    await expect(dialog.getByText('Role is required')).toBeVisible();
    await expectAccessible(page);

    const email = uniqueEmail('nina');
    await dialog.getByLabel('Email').fill(email);
    await dialog.getByLabel('Role').fill('Engineer');
    await dialog.getByLabel('Department').fill('Platform');
    await dialog.getByRole('button', { name: 'Send Invitation' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(`Invitation sent to ${email}`)).toBeVisible();
    const row = page.getByTestId('member-row').filter({ hasText: email });
    await expect(row).toContainText('Unknown');
    await expect(row).toContainText('Pending');

    // A second invitation to the same address is refused, and the admin sees why. The success toast sits over
    // the button (top right), and a toast under the pointer stays open, so let it close first.
    await expect(page.getByText(`Invitation sent to ${email}`)).toBeHidden();
    await page.getByRole('button', { name: 'Invite Team Member' }).click();
    await dialog.getByLabel('Email').fill(email.toUpperCase());
    await dialog.getByLabel('Role').fill('Engineer');
    await dialog.getByRole('button', { name: 'Send Invitation' }).click();
    await expect(dialog.getByRole('alert')).toContainText('An invitation is already pending');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    const mail = await waitForMail(mailDir, email, /invited to join Invite Co/);
    const invitee = await browser.newContext({ baseURL: page.url() });
    const nina = await invitee.newPage();
    await nina.goto(inviteLink(mail.text));
    await expect(nina.getByRole('heading', { name: 'Join Invite Co' })).toBeVisible();
    await expectAccessible(nina);
    await nina.getByLabel('Full Name').fill('Nina Newcomer');
    await nina.getByLabel('Password', { exact: true }).fill('nina-password-1');
    await nina.getByLabel('Confirm Password').fill('nina-password-1');
    await nina.getByRole('button', { name: 'Create account and join' }).click();
    await expect(nina).toHaveURL(/\/admin\/dashboard$/);
    await invitee.close();

    await page.reload();
    const joined = page.getByTestId('member-row').filter({ hasText: 'Nina Newcomer' });
    await expect(joined).toContainText('Active');
    await expect(joined).toContainText('Engineer');
    await page.getByRole('searchbox', { name: 'Search members' }).fill('platform');
    await expect(page.getByTestId('member-row')).toHaveCount(1);
    await page.getByRole('searchbox', { name: 'Search members' }).fill('nobody-like-this');
    await expect(page.getByText('No members match "nobody-like-this"')).toBeVisible();
    await page.getByRole('searchbox', { name: 'Search members' }).fill('');

    // The last admin cannot be demoted; the message says why.
    await page.getByRole('button', { name: 'Edit Alex Admin' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Alex Admin' });
    await edit.getByRole('checkbox', { name: 'Admin access' }).click();
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect(edit.getByRole('alert')).toContainText('A workspace needs at least one admin');
    await edit.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: 'Remove Nina Newcomer' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByTestId('member-row').filter({ hasText: 'Nina Newcomer' })).toHaveCount(0);
  });

  test('revoked and resent invitations: the old link explains itself', async ({ page, browser, mailDir }) => {
    const admin = await signUpAdmin(page, mailDir, { companyName: 'Revoke Co' });
    const email = uniqueEmail('rory');
    const response = await page.request.post(`/api/workspaces/${admin.workspaceId}/invitations`, {
      data: { email, role: 'Analyst' },
    });
    expect(response.status()).toBe(201);
    const first = inviteLink((await waitForMail(mailDir, email, /invited/)).text);

    await page.goto('/admin/team-management/invitations');
    const card = page.getByTestId('invitation').filter({ hasText: email });
    await expect(card).toContainText('Analyst');
    await expectAccessible(page);
    await card.getByRole('button', { name: 'Resend' }).click();
    await expect(page.getByText(`Invitation sent again to ${email}`)).toBeVisible();
    await card.getByRole('button', { name: 'Revoke' }).click();
    await expect(page.getByRole('heading', { name: 'No pending invitations' })).toBeVisible();

    const visitor = await browser.newContext({ baseURL: page.url() });
    const other = await visitor.newPage();
    await other.goto(first);
    await expect(other.getByRole('heading', { name: 'Invitation not valid' })).toBeVisible();
    await expect(other.getByRole('alert')).toContainText('no longer valid');
    await visitor.close();
  });

  test('reads well at 360 px', async ({ page, mailDir }) => {
    const admin = await signUpAdmin(page, mailDir, { companyName: 'Narrow Team Co' });
    await page.request.post(`/api/workspaces/${admin.workspaceId}/invitations`, {
      data: {
        email: uniqueEmail('a-rather-long-address-for-a-small-screen'),
        role: 'Senior Product Designer',
      },
    });
    await page.setViewportSize({ width: 360, height: 740 });
    for (const path of ['/admin/team-management', '/admin/team-management/invitations']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByText('Loading', { exact: false })).toHaveCount(0);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await expectAccessible(page);
    }
  });
  test('someone with two-factor sign-in on accepts with the password and a code, without leaving the page', async ({
    page,
    browser,
    baseURL,
    mailDir,
  }) => {
    // The invited person already has an account (of their own organisation) with two-factor sign-in on.
    const theirs = await browser.newContext({ baseURL: baseURL! });
    const invitee = await theirs.newPage();
    const person = await signUpAdmin(invitee, mailDir, { companyName: 'Their Own Co' });
    const { key } = await enrolAuthenticator(invitee, person.password);
    await theirs.clearCookies();

    const admin = await signUpAdmin(page, mailDir, { companyName: 'Two Factor Guests Co' });
    const response = await page.request.post(`/api/workspaces/${admin.workspaceId}/invitations`, {
      data: { email: person.email, role: 'Reviewer' },
    });
    expect(response.status(), await response.text()).toBe(201);
    const link = inviteLink(
      (await waitForMail(mailDir, person.email, /invited to join Two Factor Guests Co/)).text,
    );

    await invitee.setViewportSize({ width: 360, height: 740 });
    await invitee.goto(link);
    await expect(invitee.getByRole('heading', { name: 'Join Two Factor Guests Co' })).toBeVisible();
    await invitee.getByLabel('Password').fill(person.password);
    await invitee.getByRole('button', { name: 'Sign in and join' }).click();
    await expect(invitee.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
    await expect(invitee).toHaveURL(/\/invite\//);
    await expectAccessible(invitee);
    expect(await invitee.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    // The code that turned two-factor sign-in on is used up; the next period's code signs in and joins.
    await invitee.getByLabel('Authentication code').fill(codeAt(key, 1));
    await invitee.keyboard.press('Enter');
    await expect(invitee).toHaveURL(/\/admin\/dashboard$/);
    const me = (await (await invitee.request.get('/api/me')).json()) as {
      user: { activeWorkspaceId: string };
    };
    expect(me.user.activeWorkspaceId).toBe(admin.workspaceId);
    await theirs.close();

    await page.goto('/admin/team-management');
    await expect(page.getByTestId('member-row').filter({ hasText: person.email })).toContainText('Active');
  });
});
