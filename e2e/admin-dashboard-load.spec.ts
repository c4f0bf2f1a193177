import { launchThroughApi, signUpAdmin } from './support/accounts';
import { expect, test } from './support/fixtures';

test.describe('admin dashboard load', () => {
  test('reads the dashboard once on load, and again only when something changes', async ({
    page,
    mailDir,
  }) => {
    const admin = await signUpAdmin(page, mailDir, { companyName: 'Once Co' });
    // The confirmation screen may still be moving on to the dashboard by itself: leave it before counting.
    await page.goto('about:blank');
    const reads: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/dashboard') reads.push(request.url());
    });
    const stream = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/events');
    await page.goto('/admin/dashboard');
    await expect(page.getByText('No Items Found')).toBeVisible();
    // The live stream opens after the first read; its `ready` event used to read the dashboard a second time.
    expect((await stream).status()).toBe(200);
    await page.waitForTimeout(1500);
    expect(reads).toHaveLength(1);

    // A change still reads it again, and shows.
    await launchThroughApi(page, { workspaceId: admin.workspaceId, title: 'Changed check' });
    await expect(page.getByRole('article', { name: 'Changed check' })).toBeVisible();
    expect(reads).toHaveLength(2);
  });
});
