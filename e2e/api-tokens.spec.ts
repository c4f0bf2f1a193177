import { signUpAdmin } from './support/accounts';
import { expect, expectAccessible, test } from './support/fixtures';

/**
 * Account settings → 'API tokens' (issue 35): a token is made with a name, scopes and an expiry, shown once, listed
 * with its scopes and dates, works as `Authorization: Bearer`, and stops working when revoked.
 */
test.describe('API tokens', () => {
  test('a token is created, shown once, used, listed and revoked', async ({ page, mailDir }) => {
    await signUpAdmin(page, mailDir);
    await page.goto('/admin/account-settings');
    await page.getByRole('link', { name: 'API tokens' }).click();
    await expect(page).toHaveURL(/\/admin\/account-settings\/api-tokens$/);
    await expect(page.getByRole('heading', { name: 'Personal tokens' })).toBeVisible();
    await expect(page.getByText('You have no API tokens yet.')).toBeVisible();
    await expectAccessible(page);

    // The owner sees the organisation's tokens too, below their own: the first form is their own.
    await expect(page.getByRole('heading', { name: 'Organisation tokens' })).toBeVisible();
    // Nothing chosen: the form says what is missing.
    await page.getByRole('button', { name: 'Create token' }).first().click();
    await expect(page.getByText('Give this token a name').first()).toBeVisible();
    await expect(page.getByText('Choose at least one scope').first()).toBeVisible();

    await page.getByLabel('Token name').first().fill('Team dashboard');
    await page.getByRole('checkbox', { name: 'health-checks:read' }).first().check();
    await page.getByRole('checkbox', { name: 'results:read' }).first().check();
    await page.getByLabel('Expires').first().selectOption({ label: '30 days' });
    await page.getByRole('button', { name: 'Create token' }).first().click();

    await expect(page.getByText('Copy it now: it will not be shown again.')).toBeVisible();
    const field = page.getByLabel('New token "Team dashboard"');
    const secret = await field.inputValue();
    expect(secret).toMatch(/^pc_[A-Za-z0-9_-]{43}$/);
    await expectAccessible(page);

    // It works as a bearer token, outside the browser's session.
    const api = await page
      .context()
      .browser()!
      .newContext({ baseURL: new URL(page.url()).origin });
    const headers = { Authorization: `Bearer ${secret}` };
    expect((await api.request.get('/api/dashboard', { headers })).status()).toBe(200);
    expect((await api.request.get('/api/account/profile', { headers })).status()).toBe(403);

    await page.getByRole('button', { name: 'I have copied the token' }).click();
    await expect(page.getByText(secret)).toHaveCount(0);
    await expect(field).toHaveCount(0);
    const list = page.getByRole('list', { name: 'Personal tokens' });
    await expect(list.getByText('Team dashboard')).toBeVisible();
    await expect(list.getByText('health-checks:read, results:read')).toBeVisible();
    await page.reload();
    await expect(page.getByText(secret)).toHaveCount(0);
    // Its use a moment ago is on the list once read again.
    await expect(list.getByText(/Created .* Last used .* Expires /)).toBeVisible();

    await page.setViewportSize({ width: 360, height: 740 });
    await expect(list.getByText('Team dashboard')).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Revoke token Team dashboard' }).click();
    await expect(page.getByText('Token revoked').first()).toBeVisible();
    await expect(page.getByText('You have no API tokens yet.')).toBeVisible();
    expect((await api.request.get('/api/dashboard', { headers })).status()).toBe(401);
    await api.close();
  });
});
