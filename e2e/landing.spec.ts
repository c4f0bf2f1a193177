import { expect, expectAccessible, test } from './support/fixtures';

test.describe('landing page', () => {
  test('shows the product, the plans and the ways in', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    for (const anchor of ['features', 'how-it-works', 'pricing']) {
      await expect(page.locator(`#${anchor}`)).toBeAttached();
    }
    const pricing = page.locator('#pricing');
    await expect(pricing.getByRole('article', { name: 'Starter plan' })).toContainText('$29');
    // A self-hosted installation has every feature with no limits; the prices are for support (PRODUCT-DECISIONS 9).
    await expect(pricing).toContainText(
      'every installation has every feature, with no limit on members or templates',
    );
    await expect(pricing.getByRole('article', { name: 'Starter plan' })).toContainText(
      'No limit on members or templates',
    );
    // Custom branding exists (issue 32 item 10): in every installation, and the Professional plan helps set it up.
    await expect(pricing.getByRole('article', { name: 'Starter plan' })).toContainText(
      'Custom branding: your logo and accent colour for participants',
    );
    await expect(pricing.getByRole('article', { name: 'Professional plan' })).toContainText(
      'Help with single sign-on, custom branding and backups',
    );
    await expect(pricing).not.toContainText(/Up to \d+ (team )?members|\d+ loop templates/);
    await expect(pricing.getByRole('article', { name: 'Professional plan' })).toContainText('$79');
    await expect(pricing.getByRole('article', { name: 'Professional plan' })).toContainText('Most Popular');
    await expect(pricing.getByRole('article', { name: 'Enterprise plan' })).toContainText('Custom');
    // How teams use it: examples with a role and a team size; no invented people, no quotes.
    const scenarios = page.locator('#testimonials figure');
    await expect(scenarios).toHaveCount(3);
    for (const scenario of await scenarios.all()) await expect(scenario).toContainText('Example');
    await expect(page.locator('#testimonials blockquote')).toHaveCount(0);
    await expect(page.locator('#testimonials')).not.toContainText(/Alex Morgan|Priya Shah|Jonas Berg/);
    await expect(page.getByRole('contentinfo')).toContainText(`© ${new Date().getFullYear()}`);
    await expectAccessible(page);
  });

  test('links to sign-up, login, terms and privacy', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('link', { name: 'Get Early Access' }).first().click();
    await expect(page).toHaveURL(/\/admin\/signup$/);

    await page.goto('/');
    await page.getByRole('link', { name: 'Join Beta' }).click();
    await expect(page).toHaveURL(/\/admin\/signup$/);

    await page.goto('/');
    await page.locator('#pricing').getByRole('link', { name: 'Start with Starter' }).click();
    await expect(page).toHaveURL(/\/admin\/signup$/);

    await page.goto('/');
    await page.getByRole('banner').getByRole('link', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/login$/);

    await page.goto('/');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Terms of Service' }).click();
    await expect(page.getByRole('heading', { name: 'Terms of Service' })).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Policy' }).click();
    await expect(page.getByRole('heading', { name: 'Privacy Policy' })).toBeVisible();
  });

  test('reads well at 360 px', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto('/');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectAccessible(page);
  });
});

test.describe('routing', () => {
  test('unknown paths go to the landing page', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page).toHaveURL(/\/$/);
  });

  test('protected screens send signed-out visitors to login', async ({ page }) => {
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('error screens explain and offer a way back', async ({ page }) => {
    await page.goto('/invalid-link');
    await expect(page.getByRole('heading', { name: 'Health check not found' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Return Home' })).toBeVisible();
    await expectAccessible(page);
    await page.goto('/error');
    await expect(page.getByRole('heading', { name: 'An unexpected error occurred' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Try Again' })).toBeVisible();
    await page.goto('/setup-error');
    await expect(page.getByRole('link', { name: 'Log in again' })).toBeVisible();
  });
});
