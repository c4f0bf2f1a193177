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

  test('downloads exactly the listed items and shares a link that restores the view', async ({
    page,
    context,
    mailDir,
    browser,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const admin = await signUpAdmin(page, mailDir, { companyName: 'Csv Co' });
    const open = await launchThroughApi(page, { workspaceId: admin.workspaceId, title: 'Export me' });
    const done = await launchThroughApi(page, { workspaceId: admin.workspaceId, title: '=Finished, "Q3"' });
    const other = await browser.newContext();
    await completeParticipation(other, mailDir, done.id);
    await other.close();
    for (const to of ['vote', 'summarize']) {
      const moved = await page.request.post(`/api/health-checks/${done.id}/phase`, { data: { to } });
      expect(moved.status()).toBe(200);
    }

    const downloadCsv = async () => {
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download the listed items as CSV' }).click();
      const file = await download;
      const chunks: Buffer[] = [];
      for await (const chunk of await file.createReadStream()) chunks.push(chunk as Buffer);
      return { name: file.suggestedFilename(), lines: Buffer.concat(chunks).toString('utf8').split('\r\n') };
    };
    const header = 'Title,Type,Status,Created,Responses,Participants,Completion Rate (%),Overdue,Join Link';

    await page.goto('/admin/dashboard');
    await expect(page.getByRole('article', { name: 'Export me' })).toBeVisible();
    // Overview: both items, one row each (the title a spreadsheet would run as a formula is defused and quoted).
    const overview = await downloadCsv();
    expect(overview.lines[0]).toBe(header);
    expect(overview.lines).toHaveLength(4);
    expect(overview.lines.slice(1, 3)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Export me,Health Check,Active,/),
        expect.stringMatching(/^"'=Finished, ""Q3""",Health Check,Completed,/),
      ]),
    );
    expect(overview.lines.at(-1)).toBe('');
    expect(overview.lines.join('\n')).toContain(open.joinUrl);

    // The Completed tab of the Health Checks filter: the address follows, and the download holds that tab only.
    await page.getByRole('button', { name: 'Health Checks' }).click();
    await page.getByRole('tab', { name: 'Completed (1)' }).click();
    await expect(page).toHaveURL(/\/admin\/dashboard\?filter=health-checks&tab=completed$/);
    await expect(page.getByRole('article', { name: 'Export me' })).toBeHidden();
    const completed = await downloadCsv();
    expect(completed.name).toMatch(/^pulsecheck-dashboard-health-checks-completed-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(completed.lines).toEqual([
      header,
      expect.stringMatching(
        new RegExp(`^"'=Finished, ""Q3""",Health Check,Completed,.*,1,1,100,no,${done.joinUrl}$`),
      ),
      '',
    ]);

    // Share copies the link to this view and confirms it; the dialog shows it beside the active join links.
    await page.getByRole('button', { name: 'Share a link to this view' }).click();
    await expect(page.getByText('Link copied to clipboard')).toBeVisible();
    const dialog = page.getByRole('dialog', { name: 'Share this view' });
    const viewLink = new URL('/admin/dashboard?filter=health-checks&tab=completed', page.url()).toString();
    await expect(dialog.getByRole('textbox', { name: 'Link to this view' })).toHaveValue(viewLink);
    await expect(dialog.getByRole('status')).toHaveText('Copied to the clipboard.');
    await expect(dialog.getByRole('textbox', { name: 'Join link for Export me' })).toHaveValue(open.joinUrl);
    await expectAccessible(page);
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(viewLink);
    await dialog.getByRole('button', { name: 'Close' }).click();

    // Opened, the link restores the view: the filter, the tab and what they list.
    const second = await context.newPage();
    await second.goto(copied);
    await expect(second.getByRole('button', { name: 'Health Checks' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expect(second.getByRole('tab', { name: 'Completed (1)' })).toHaveAttribute('aria-selected', 'true');
    await expect(second.getByRole('article', { name: '=Finished, "Q3"' })).toBeVisible();
    await expect(second.getByRole('article', { name: 'Export me' })).toBeHidden();
    await second.close();
  });

  test('shows the link to copy by hand where the browser has no clipboard', async ({ page, mailDir }) => {
    // As on a plain-http address, where browsers give pages no clipboard.
    await page.addInitScript(() => Object.defineProperty(navigator, 'clipboard', { value: undefined }));
    await signUpAdmin(page, mailDir, { companyName: 'No Clipboard Co' });
    await page.goto('/admin/dashboard?tab=active');
    await page.getByRole('button', { name: 'Share a link to this view' }).click();
    await expect(page.getByText('Could not copy the link. Select it and copy it by hand.')).toBeVisible();
    const dialog = page.getByRole('dialog', { name: 'Share this view' });
    await expect(dialog.getByRole('status')).toHaveText(
      'The browser did not let the page copy it: select the link and copy it by hand.',
    );
    const link = dialog.getByRole('textbox', { name: 'Link to this view' });
    await expect(link).toHaveValue(new URL('/admin/dashboard?tab=active', page.url()).toString());
    await expect(link).toBeFocused();
  });
});
