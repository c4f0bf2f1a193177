import { generateSync } from 'otplib';
import { expect, type Page } from '@playwright/test';

/** A code of the authenticator app, computed from the key the Security tab showed, `steps` periods from now. */
export const codeAt = (key: string, steps = 0) =>
  generateSync({ secret: key, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

/**
 * Turns two-factor sign-in on for the person signed in on `page`, through the Security tab, and returns the key
 * and the code it used, which is then used up: the next sign-in or confirmation takes `codeAt(key, 1)`. (The
 * period may have turned since, so `codeAt(key)` is not necessarily that code any more.)
 */
export async function enrolAuthenticator(page: Page, password: string) {
  await page.goto('/admin/account-settings/security');
  await page.getByRole('button', { name: 'Set up authenticator app' }).click();
  await page.getByLabel('Current password').fill(password);
  await page.keyboard.press('Enter');
  const key = (await page.getByTestId('totp-key').textContent())!.trim();
  const used = codeAt(key);
  await page.getByLabel('Code from your authenticator app').fill(used);
  await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
  await page.getByRole('button', { name: 'I have saved my recovery codes' }).click();
  await expect(page.getByText('Two-factor sign-in is on')).toBeVisible();
  return { key, used };
}
