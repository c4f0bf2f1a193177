import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signUpAdmin } from './support/accounts';
import { expect, expectAccessible, test } from './support/fixtures';

/**
 * Webhooks (issue 35 item 3): an admin adds a webhook pointing at an HTTP server this test runs on the loopback
 * (the app server has WEBHOOKS_ALLOW_LOOPBACK=true, e2e/support/app-server.ts), sees its secret once, sends a
 * test event and sees the delivery with its response code; by keyboard, at 360 px, axe clean.
 */
test.describe('webhooks', () => {
  let receiver: Server;
  let url = '';
  const received: { headers: Record<string, unknown>; body: string }[] = [];
  test.beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(202).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  });
  test.afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

  test('an admin adds a webhook, sees its secret once, sends a test event and sees the delivery', async ({
    page,
    mailDir,
  }) => {
    await page.setViewportSize({ width: 360, height: 800 });
    await signUpAdmin(page, mailDir, { companyName: 'Hook Co' });
    // Workspace Settings → 'Webhooks' (the sidebar opens it; at 360 px behind the menu button).
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page
      .getByRole('navigation', { name: 'Admin' })
      .getByRole('link', { name: 'Workspace Settings' })
      .click();
    await expect(page).toHaveURL(/\/admin\/workspace-settings\/webhooks$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Workspace Settings' })).toBeVisible();
    await expect(
      page.getByRole('navigation', { name: 'Workspace Settings' }).getByRole('link', { name: 'Webhooks' }),
    ).toHaveAttribute('aria-current', 'page');
    await expectAccessible(page);

    await page.getByLabel('Endpoint URL').first().fill(url);
    await page.getByRole('checkbox', { name: 'A health check is launched' }).first().check();
    await page.getByRole('checkbox', { name: 'An action item is completed' }).first().check();
    await page.getByRole('button', { name: 'Add webhook' }).first().click();
    const secret = page.getByTestId('webhook-secret');
    await expect(secret).toHaveText(/^whsec_/);
    await expect(page.getByRole('button', { name: 'Copy secret' })).toBeVisible();
    await expectAccessible(page);
    // Nothing wider than the screen at 360 px.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    const list = page.getByRole('list', { name: /^Webhooks: / });
    await expect(list.getByText(url)).toBeVisible();
    // 'Send a test event' by keyboard.
    await list.getByRole('button', { name: 'Send a test event' }).focus();
    await page.keyboard.press('Enter');
    const delivery = page.getByTestId('delivery').first();
    await expect(delivery).toContainText('webhook.test');
    await expect(delivery).toContainText('response 202', { timeout: 15_000 });
    await expect(delivery).toContainText('Delivered');
    expect(received).toHaveLength(1);
    expect(String(received[0]!.headers['pulsecheck-signature'])).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    await expectAccessible(page);

    // The secret is shown once: not after a reload.
    await page.reload();
    await expect(page.getByRole('list', { name: /^Webhooks: / }).getByText(url)).toBeVisible();
    await expect(page.getByTestId('webhook-secret')).toHaveCount(0);

    // Organisation-wide webhooks live in the organisation's settings (Account Settings → Organisation).
    await page.goto('/admin/account-settings/organisation');
    await expect(page.getByRole('heading', { name: 'Organisation-wide webhooks' })).toBeVisible();
    await expect(page.getByLabel('Endpoint URL')).toHaveCount(1);
    await expectAccessible(page);
  });
});
