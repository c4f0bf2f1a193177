import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { startDnsServer, type DnsServer } from '../apps/server/src/test/dns-server';
import { startOidcProvider, type OidcProvider } from '../apps/server/src/test/oidc-provider';
import { signUpAdmin, uniqueEmail } from './support/accounts';
import { startApp } from './support/app-server';
import { expect, expectAccessible, test } from './support/fixtures';
import { waitForMail } from './support/mail-capture';
import { codeAt } from './support/two-factor';

async function signInWithPassword(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Publishes the TXT record the Security tab shows for `domain` on `dns`, then 'Verify domain'. */
async function verifyDomain(page: Page, dns: DnsServer, domain: string) {
  const record = (await page.getByTestId('sso-record').textContent())!.trim();
  expect(record).toMatch(/^pulsecheck-verification=/);
  dns.setTxt(domain, record);
  await page.getByRole('button', { name: 'Verify domain' }).click();
  await expect(page.getByText(`${domain}: Verified`)).toBeVisible();
}

async function logOut(page: Page) {
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

test.describe('two-factor sign-in', () => {
  test('enrol an authenticator app, sign in with a code, then with a recovery code', async ({
    page,
    mailDir,
  }) => {
    const admin = await signUpAdmin(page, mailDir);
    await page.goto('/admin/account-settings');
    // The menu's Security entry is a real screen now ('Soon' is gone).
    const securityLink = page
      .getByRole('navigation', { name: 'Account settings' })
      .getByRole('link', { name: 'Security' });
    await expect(securityLink).not.toContainText('Soon');
    await securityLink.click();
    await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
    await expectAccessible(page);

    // By keyboard: the set-up button, the password, Enter.
    await page.getByRole('button', { name: 'Set up authenticator app' }).focus();
    await page.keyboard.press('Enter');
    await page.getByLabel('Current password').fill(admin.password);
    await page.keyboard.press('Enter');
    await expect(
      page.getByRole('img', { name: 'QR code to scan with your authenticator app' }),
    ).toBeVisible();
    const key = (await page.getByTestId('totp-key').textContent())!.trim();
    await page.getByLabel('Code from your authenticator app').fill(codeAt(key));
    await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
    const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await expect(codes).toHaveCount(10);
    const recoveryCodes = (await codes.allTextContents()).map((code) => code.trim());
    await expectAccessible(page);
    await page.getByRole('button', { name: 'I have saved my recovery codes' }).click();
    await expect(page.getByText('Two-factor sign-in is on')).toBeVisible();
    await expect(page.getByText('10 of 10 recovery codes left.')).toBeVisible();

    await logOut(page);
    await signInWithPassword(page, admin.email, admin.password);
    await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
    await expectAccessible(page);
    // The code of enrolment was used: the next period's code (one step of skew) signs in.
    await page.getByLabel('Authentication code').fill(codeAt(key, 1));
    await page.keyboard.press('Enter');
    // Home, not back where the last person signed out (on a shared device that was someone else's page).
    await expect(page).toHaveURL(/\/admin\/dashboard$/);

    await logOut(page);
    await signInWithPassword(page, admin.email, admin.password);
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel('Recovery code').fill('wrong-code');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('alert')).toContainText('That recovery code is not right');
    await page.getByLabel('Recovery code').fill(recoveryCodes[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await page.goto('/admin/account-settings/security');
    await expect(page.getByText('9 of 10 recovery codes left.')).toBeVisible();
    // Readable at 360 px: nothing wider than the screen.
    await page.setViewportSize({ width: 360, height: 800 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });
});

test.describe('passkeys', () => {
  // WebAuthn needs a domain, never an IP address: this journey runs against a server of its own at localhost.
  let app: Awaited<ReturnType<typeof startApp>>;
  let work: string;
  let idp: OidcProvider;
  let dns: DnsServer;
  test.beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'pulsecheck-passkey-'));
    dns = await startDnsServer();
    app = await startApp({
      work,
      smtpPort: Number(process.env.E2E_SMTP_PORT),
      host: 'localhost',
      dnsServer: dns.server,
    });
    idp = await startOidcProvider();
  });
  test.afterAll(async () => {
    await idp.stop();
    await app.stop();
    await dns.stop();
    await rm(work, { recursive: true, force: true });
  });

  test('add a passkey on the Security tab and sign in with it; once SSO is required it no longer gets around it', async ({
    browser,
    mailDir,
  }) => {
    // The whole journey: sign-up, a passkey, SSO set up, verified, tested, linked and required.
    test.setTimeout(150_000);
    const context = await browser.newContext({ baseURL: app.baseUrl });
    const page = await context.newPage();
    // Chromium's virtual authenticator stands in for the fingerprint reader.
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    const domain = `${uniqueEmail('pk').split('@')[0]}.test`;
    const admin = await signUpAdmin(page, mailDir, { email: `owner@${domain}` });
    await page.goto('/admin/account-settings/security');
    await page.getByLabel('Passkey name').fill('Work laptop');
    // Adding a passkey asks for the password first (issue 30): a stolen session cannot add one.
    await page.getByRole('button', { name: 'Add passkey' }).click();
    await expect(page.getByRole('alert')).toContainText('Enter your password to confirm');
    await page.getByLabel('Your password').fill('not-the-password');
    await page.getByRole('button', { name: 'Add passkey' }).click();
    await expect(page.getByRole('alert')).toContainText('Password is incorrect');
    const passkeys = page.getByRole('list', { name: 'Your passkeys' });
    await expect(passkeys).toBeHidden();
    await page.getByLabel('Your password').fill(admin.password);
    await page.getByRole('button', { name: 'Add passkey' }).click();
    await expect(passkeys.getByText('Work laptop')).toBeVisible();
    await expect(page.getByLabel('Your password')).toHaveValue('');
    await expectAccessible(page);
    expect((await waitForMail(mailDir, admin.email, /A passkey was added to your account/)).text).toContain(
      'Work laptop',
    );

    await logOut(page);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await page.goto('/admin/account-settings/security');
    await expect(passkeys.getByText('Work laptop')).toBeVisible();

    // The organisation puts its domain behind its identity provider: a passkey no longer signs in there.
    await page.getByLabel('Issuer URL').fill(idp.issuer);
    await page.getByLabel('Client ID').fill(idp.clientId);
    await page.getByLabel('Client secret').fill(idp.clientSecret);
    await page.getByLabel('E-mail domains').fill(domain);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Single sign-on saved')).toBeVisible();
    await verifyDomain(page, dns, domain);
    idp.signInAs({ sub: `owner-${domain}`, email: admin.email, emailVerified: true, name: 'Alex Admin' });
    await page.getByRole('button', { name: 'Test connection' }).click();
    await expect(page.getByText('Test connection passed')).toBeVisible();
    await page.getByRole('switch', { name: /Offer .Sign in with SSO./ }).click();
    await expect(page.getByRole('switch', { name: /Offer .Sign in with SSO./ })).toBeChecked();
    // SSO signs in an existing account only once its owner linked it, from their own session.
    await page.getByRole('button', { name: 'Link single sign-on' }).click();
    await page.getByLabel('Current password').fill(admin.password);
    await page.getByRole('button', { name: 'Continue to your identity provider' }).click();
    await expect(page).toHaveURL(/\/admin\/account-settings\/security\?sso=linked$/);
    await expect(page.getByText('Single sign-on is linked to your account.')).toBeVisible();
    await page.getByRole('switch', { name: /Require SSO for these domains/ }).click();
    await expect(page.getByRole('switch', { name: /Require SSO for these domains/ })).toBeChecked();
    await logOut(page);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(page.getByRole('alert')).toContainText('Your organisation signs in with single sign-on');
    await expect(page).toHaveURL(/\/login$/);
    expect((await page.request.get('/api/me')).status()).toBe(401);

    // Through the provider instead, then the passkey is removable.
    await page.getByRole('button', { name: 'Sign in with SSO' }).click();
    await page.getByLabel('Work email').fill(admin.email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/admin\//);
    await page.goto('/admin/account-settings/security');
    await page.getByRole('button', { name: 'Remove passkey Work laptop' }).click();
    await expect(page.getByText('No passkeys yet.')).toBeVisible();
    await context.close();
  });
});

test.describe('single sign-on', () => {
  // A server of its own, asking a DNS server this journey runs for the domain's verification record.
  let app: Awaited<ReturnType<typeof startApp>>;
  let work: string;
  let idp: OidcProvider;
  let dns: DnsServer;
  test.beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'pulsecheck-sso-'));
    dns = await startDnsServer();
    app = await startApp({ work, smtpPort: Number(process.env.E2E_SMTP_PORT), dnsServer: dns.server });
    idp = await startOidcProvider();
  });
  test.afterAll(async () => {
    await idp.stop();
    await app.stop();
    await dns.stop();
    await rm(work, { recursive: true, force: true });
  });

  test('configure SSO, verify the domain, sign in through the provider as a new member, then require it', async ({
    browser,
    mailDir,
  }) => {
    // Three browsers, a provider and a DNS server of its own: a minute is not enough while another file runs.
    test.setTimeout(180_000);
    const baseURL = app.baseUrl;
    const page = await (await browser.newContext({ baseURL })).newPage();
    const domain = `${uniqueEmail('co').split('@')[0]}.test`;
    const admin = await signUpAdmin(page, mailDir, { email: `owner@${domain}` });
    await page.goto('/admin/account-settings/security');
    await page.getByLabel('Issuer URL').fill(idp.issuer);
    await page.getByLabel('Client ID').fill(idp.clientId);
    await page.getByLabel('Client secret').fill(idp.clientSecret);
    await page.getByLabel('E-mail domains').fill(domain);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Single sign-on saved')).toBeVisible();
    await expect(page.getByRole('switch', { name: /Offer .Sign in with SSO./ })).toBeDisabled();

    // 'Verify domain' without the record says so; with it, the domain is verified.
    await expect(page.getByText(`${domain}: Not verified yet`)).toBeVisible();
    await page.getByRole('button', { name: 'Verify domain' }).click();
    await expect(page.getByText(`The TXT record was not found on ${domain}`)).toBeVisible();
    await expectAccessible(page);
    await verifyDomain(page, dns, domain);

    idp.signInAs({ sub: `owner-${domain}`, email: admin.email, emailVerified: true, name: 'Alex Admin' });
    await page.getByRole('button', { name: 'Test connection' }).click();
    await expect(page).toHaveURL(/\/admin\/account-settings\/security\?sso=tested$/);
    await expect(page.getByText('Test connection passed')).toBeVisible();
    await page.getByRole('switch', { name: /Offer .Sign in with SSO./ }).click();
    await expect(page.getByRole('switch', { name: /Offer .Sign in with SSO./ })).toBeChecked();
    await expectAccessible(page);

    // A new person of the company signs in through the provider and joins as a member.
    const newcomer = await browser.newContext({ baseURL });
    const visitor = await newcomer.newPage();
    idp.signInAs({ sub: `nia-${domain}`, email: `nia@${domain}`, emailVerified: true, name: 'Nia Newcomer' });
    await visitor.goto('/login');
    await visitor.getByRole('button', { name: 'Sign in with SSO' }).click();
    await visitor.getByLabel('Work email').fill(`nia@${domain}`);
    await expectAccessible(visitor);
    await visitor.getByRole('button', { name: 'Continue' }).click();
    await expect(visitor).toHaveURL(/\/admin\/dashboard$/);
    const me = (await (await visitor.request.get('/api/me')).json()) as {
      user: { name: string; canAdmin: boolean };
    };
    expect(me.user).toMatchObject({ name: 'Nia Newcomer', canAdmin: true });
    await newcomer.close();

    // Required: password sign-in for the domain is refused with a pointer to SSO.
    await page.getByRole('switch', { name: /Require SSO for these domains/ }).click();
    await expect(page.getByRole('switch', { name: /Require SSO for these domains/ })).toBeChecked();
    const other = await browser.newContext({ baseURL });
    const passwordPage = await other.newPage();
    await signInWithPassword(passwordPage, admin.email, admin.password);
    await expect(passwordPage.getByRole('alert')).toContainText(
      'Your organisation signs in with single sign-on',
    );
    await expect(passwordPage.getByText('Your organisation uses single sign-on:')).toBeVisible();
    await other.close();
  });
});
