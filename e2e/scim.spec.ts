import { signUpAdmin } from './support/accounts';
import { expect, expectAccessible, test } from './support/fixtures';

/**
 * Account Settings → Security → 'SCIM provisioning' (issue 37): the owner sees the base URL, creates the token by
 * keyboard, sees it once, and it works against /scim/v2; rotating stops the old one. Axe clean, readable at 360 px.
 */
test.describe('SCIM provisioning', () => {
  test('the owner creates the SCIM token, sees it once, uses it, and rotates it', async ({
    page,
    mailDir,
  }) => {
    await signUpAdmin(page, mailDir);
    await page.goto('/admin/account-settings/security');
    await expect(page.getByRole('heading', { name: 'SCIM provisioning' })).toBeVisible();
    const origin = new URL(page.url()).origin;
    await expect(page.getByLabel('SCIM base URL')).toHaveValue(/\/scim\/v2$/);
    await expect(page.getByText('No token yet: provisioning is off.')).toBeVisible();
    await expectAccessible(page);

    // By keyboard: focus the button and press Enter.
    await page.getByRole('button', { name: 'Create token' }).focus();
    await page.keyboard.press('Enter');
    const field = page.getByLabel('New SCIM token');
    await expect(field).toBeVisible();
    const secret = await field.inputValue();
    expect(secret).toMatch(/^pcscim_[A-Za-z0-9_-]{43}$/);
    await expectAccessible(page);

    const api = await page.context().browser()!.newContext({ baseURL: origin });
    const headers = { Authorization: `Bearer ${secret}` };
    const config = await api.request.get('/scim/v2/ServiceProviderConfig', { headers });
    expect(config.status()).toBe(200);
    expect(config.headers()['content-type']).toMatch(/^application\/scim\+json/);
    expect((await api.request.get('/scim/v2/Users', { headers })).status()).toBe(200);

    await page.getByRole('button', { name: 'I have copied the token' }).click();
    await expect(field).toHaveCount(0);
    await page.reload();
    await expect(page.getByText(secret)).toHaveCount(0);
    await expect(page.getByText(/SCIM token pcscim_.*Created .* (Last used|Never used)/)).toBeVisible();

    await page.setViewportSize({ width: 360, height: 740 });
    await expect(page.getByRole('button', { name: 'Rotate token' })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    await page.getByRole('button', { name: 'Rotate token' }).click();
    await expect(
      page.getByText('Rotating replaces the token at once: the old one stops working.'),
    ).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Rotate token' }).click();
    const rotated = await page.getByLabel('New SCIM token').inputValue();
    expect(rotated).not.toBe(secret);
    expect((await api.request.get('/scim/v2/Users', { headers })).status()).toBe(401);
    expect(
      (await api.request.get('/scim/v2/Users', { headers: { Authorization: `Bearer ${rotated}` } })).status(),
    ).toBe(200);
    await api.close();
  });
});
