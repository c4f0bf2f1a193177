import { completeParticipation, launchThroughApi, signUpAdmin } from './support/accounts';
import { expect, expectAccessible, test } from './support/fixtures';

test.describe('admin dashboard', () => {
  test('updates live while another browser changes a check', async ({ page, mailDir, browser }) => {
    const admin = await signUpAdmin(page, mailDir, { companyName: 'Live Co' });
    await page.goto('/admin/dashboard');
    await expect(page.getByText('No Items Found')).toBeVisible();
    await expect(page.getByText('Team Health Check')).toBeVisible();
    await expectAccessible(page);

    // A launch from the API (as another tab would) appears without a reload.
    const check = await launchThroughApi(page, { workspaceId: admin.workspaceId, title: 'Live check' });
    const card = page.getByRole('article', { name: 'Live check' });
    await expect(card).toBeVisible();
    await expect(card).toContainText('Active');
    await expect(card).toContainText('0 of 0 responses');
    await expect(page.getByTestId('stat-Active Surveys')).toHaveText('1');
    await expect(page.getByRole('tab', { name: 'Active (1)' })).toBeVisible();

    // A participant in a second browser context completes: responses and rate update live.
    const other = await browser.newContext();
    await completeParticipation(other, mailDir, check.id);
    await other.close();
    await expect(card).toContainText('1 of 1 responses');
    await expect(card.getByTestId('completion-rate')).toHaveText('100%');
    await expect(card.getByRole('progressbar')).toHaveAttribute('data-tone', 'green');
    await expect(page.getByTestId('stat-Total Responses')).toHaveText('1');
    await expect(page.getByTestId('stat-Avg. Completion Rate')).toHaveText('100%');

    // A second context of the admin moves the phase; the first dashboard follows.
    const second = await browser.newContext({ storageState: await page.context().storageState() });
    const moved = await second.request.post(`/api/health-checks/${check.id}/phase`, { data: { to: 'vote' } });
    expect(moved.status()).toBe(200);
    await expect(card).toContainText('Voting');
    const completed = await second.request.post(`/api/health-checks/${check.id}/phase`, {
      data: { to: 'summarize' },
    });
    expect(completed.status()).toBe(200);
    await second.close();
    await expect(page.getByRole('tab', { name: 'Completed (1)' })).toBeVisible();
    await expect(card).toContainText('Completed');
    await expect(card.getByRole('link', { name: 'View Results' })).toBeVisible();

    await page.getByRole('tab', { name: 'Active (0)' }).click();
    await expect(page.getByText('No Active Items')).toBeVisible();
    await expect(page.getByTestId('stat-Total Responses')).toHaveText('1');
    await page.getByRole('button', { name: 'Loops' }).click();
    await page.getByRole('tab', { name: 'Overview' }).click();
    await expect(page.getByText('No Items Found')).toBeVisible();
    // The stat cards follow the filter: no loops, so nothing to count.
    await expect(page.getByTestId('stat-Total Responses')).toHaveText('0');
    await expect(page.getByTestId('stat-Avg. Completion Rate')).toHaveText('0%');
    await page.getByRole('button', { name: 'Health Checks' }).click();
    await expect(page.getByTestId('stat-Total Responses')).toHaveText('1');
  });

  test('downloads the listed items as CSV and shares the join links', async ({ page, context, mailDir }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const admin = await signUpAdmin(page, mailDir, { companyName: 'Csv Co' });
    const check = await launchThroughApi(page, { workspaceId: admin.workspaceId, title: 'Export me' });
    await page.goto('/admin/dashboard');
    await expect(page.getByRole('article', { name: 'Export me' })).toBeVisible();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download CSV' }).click();
    const file = await download;
    const stream = await file.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    const csv = Buffer.concat(chunks).toString('utf8');
    expect(csv.split('\r\n')[0]).toBe(
      'Title,Type,Status,Created,Responses,Participants,Completion Rate (%),Overdue,Join Link',
    );
    expect(csv).toContain(`Export me,Health Check,Active,`);
    expect(csv).toContain(check.joinUrl);

    await page.getByRole('button', { name: 'Share join links' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share active items' });
    await expect(dialog.getByLabel('Join link for Export me')).toHaveValue(check.joinUrl);
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Copy' }).click();
    await expect(page.getByText('Link copied to clipboard')).toBeVisible();
  });
});
