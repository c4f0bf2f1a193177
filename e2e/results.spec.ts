import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { joinedParticipant, launchThroughApi, signUpAdmin } from './support/accounts';
import { expect, expectAccessible, test } from './support/fixtures';

type Rating = 'healthy' | 'needs-improvement' | 'fire-warning' | 'dont-know';

/**
 * A participant in their own browser context: signs up for the check, verifies from the e-mail really sent
 * (which signs them in), joins and submits the given ratings (one per component, in order) with comments.
 */
async function participant(
  browser: Browser,
  mailDir: string,
  healthCheckId: string,
  fullName: string,
  ratings: Rating[],
  comments: Record<number, string> = {},
): Promise<{ context: BrowserContext; page: Page; name: string }> {
  const context = await browser.newContext();
  const { page } = await joinedParticipant(context, mailDir, healthCheckId, fullName);
  const participation = (await (
    await context.request.get(`/api/health-checks/${healthCheckId}/participation`)
  ).json()) as { components: { id: string }[] };
  const ids = participation.components.map((c) => c.id);
  const submit = await context.request.post(`/api/health-checks/${healthCheckId}/submit`, {
    data: {
      votes: Object.fromEntries(ids.map((id, i) => [id, ratings[i]])),
      comments: Object.fromEntries(
        Object.entries(comments).map(([i, text]): [string, string] => [ids[Number(i)]!, text]),
      ),
      last_component_index: ids.length - 1,
    },
  });
  expect(submit.status(), await submit.text()).toBe(200);
  return { context, page, name: fullName };
}

const areaTitles = (page: Page) =>
  page.getByTestId('prioritized-area').locator('button > span:nth-child(2) > span:first-child');

test.describe('results, dot voting, action items and the bell', () => {
  test('ranked results, voting, completion, an action item with an @mention and its notification', async ({
    page,
    browser,
    mailDir,
  }) => {
    test.setTimeout(240_000);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const admin = await signUpAdmin(page, mailDir, { companyName: 'Results Co' });
    const check = await launchThroughApi(page, {
      workspaceId: admin.workspaceId,
      title: 'Q4 Team Health',
      minResponses: 3,
    });
    // While the check collects nobody, the admin included, sees figures: progress only.
    const p1 = await participant(
      browser,
      mailDir,
      check.id,
      'Olu Owner',
      ['fire-warning', 'healthy', 'fire-warning'],
      {
        0: 'Decisions keep changing after the meeting',
      },
    );
    await page.goto(`/admin/health-check/${check.id}/results`);
    await expect(page.getByTestId('release-message')).toHaveText(/^Results open when collection ends/);
    await expect(page.getByText('1 of 1 participants have completed.')).toBeVisible();
    await expect(page.getByTestId('prioritized-area')).toHaveCount(0);
    await expectAccessible(page);

    const p2 = await participant(browser, mailDir, check.id, 'Mira Mention', [
      'fire-warning',
      'needs-improvement',
      'healthy',
    ]);
    const p3 = await participant(browser, mailDir, check.id, 'Tess Third', [
      'healthy',
      'fire-warning',
      'dont-know',
    ]);
    await page.reload();
    await expect(page.getByText('3 of 3 participants have completed.')).toBeVisible();
    await expect(page.getByText('Decisions keep changing after the meeting')).toHaveCount(0);

    // Start voting from the manage screen: collection ends, and the figures open.
    await page.goto(`/admin/health-check/${check.id}/manage`);
    await page.getByRole('button', { name: 'Start Voting Phase' }).click();
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByText('Successfully moved to vote phase')).toBeVisible();

    // The admin sees the ranked list (fire warnings first; needs improvement breaks the tie) and the label.
    await page.goto(`/admin/health-check/${check.id}/results`);
    await expect(page.getByRole('heading', { name: 'Q4 Team Health', level: 1 })).toBeVisible();
    await expect(page.getByText('3 of 3 participants completed')).toBeVisible();
    await expect(page.getByTestId('overall-health')).toHaveText('Needs Immediate Attention');
    await expect(page.getByTestId('prioritized-area')).toHaveCount(3);
    const before = await areaTitles(page).allTextContents();
    await expect(page.getByTestId('top-priority')).toHaveText(before[0]!);
    await expect(page.locator('[data-testid="prioritized-area"][data-highlighted]')).toHaveCount(3);
    const [first, second, third] = before as [string, string, string];
    // Expand the first row: distribution, the comment as Anonymous, no names.
    await page.getByRole('button', { name: new RegExp(first) }).click();
    await expect(page.getByText('Decisions keep changing after the meeting')).toBeVisible();
    await expect(page.getByText('— Anonymous')).toBeVisible();
    await expect(page.getByText('Olu Owner')).toHaveCount(0);
    await expectAccessible(page);
    await page.goto(`/admin/health-check/${check.id}/manage`);

    // Participants place dots in the voting view of the participation route; the tally updates live.
    for (const person of [p1, p2, p3]) await person.page.goto(`/health-check/${check.id}/vote`);
    await expect(p3.page.getByTestId('vote-tally')).toHaveText('0 of 3 people have voted');
    await expect(p1.page.getByTestId('dots-left')).toContainText('5 of 5 dots left');
    await expect(p1.page.getByTestId('vote-row').first()).toContainText(first);
    for (let i = 0; i < 3; i += 1)
      await p1.page.getByRole('button', { name: `Add a dot to ${third}` }).click();
    await expect(p1.page.getByTestId('dots-left')).toContainText('2 of 5 dots left');
    for (let i = 0; i < 2; i += 1)
      await p2.page.getByRole('button', { name: `Add a dot to ${third}` }).click();
    await expect(p3.page.getByTestId('vote-tally')).toHaveText('2 of 3 people have voted', {
      timeout: 15_000,
    });
    await expectAccessible(p2.page);

    // The admin completes the check and lands on the results: the dots moved the third area up.
    await page.getByRole('button', { name: 'Complete Health Check' }).click();
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/health-checks/${check.id}/results$`));
    await expect(areaTitles(page)).toHaveText([first, third, second]);
    await expect(page.getByTestId('prioritized-area').nth(1)).toContainText('5 dots');

    // The mentioned participant has the results open; the bell updates live.
    await p2.page.goto(`/health-check/${check.id}/results`);
    await expect(p2.page.getByTestId('overall-health')).toHaveText('Needs Immediate Attention');

    // Add an action item with an @mention.
    await page.getByRole('button', { name: 'Add Action Item' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add Action Item' });
    const description = dialog.getByRole('combobox', { name: 'Description' });
    await description.fill('Agree on decision owners with @Mir');
    await dialog
      .getByRole('listbox', { name: 'Mention suggestions' })
      .getByRole('option', { name: /Mira Mention/ })
      .click();
    await expect(description).toHaveValue('Agree on decision owners with @Mira Mention ');
    await expect(dialog.getByRole('list', { name: 'Mentioned Users' })).toContainText('Mira Mention');
    const ownerOption = dialog.getByLabel('Owner').locator('option', { hasText: 'Olu Owner' });
    await dialog.getByLabel('Owner').selectOption(await ownerOption.getAttribute('value'));
    await dialog.getByLabel('Due date').fill('2027-01-31');
    await dialog.getByLabel('Status').selectOption('in-progress');
    await dialog.getByLabel('Area').selectOption({ label: first });
    // Axe checks the dialog, not the completion toast that may still be fading out.
    await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 15_000 });
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Add Action Item' }).click();
    await expect(page.getByText('Action item added')).toBeVisible();
    await expect(page.getByTestId('action-item-count')).toHaveText('1');
    await expect(page.locator('#action-items').getByTestId('action-item')).toContainText('Owner: Olu Owner');

    const bell = p2.page.getByRole('button', { name: /^Notifications/ });
    await expect(bell).toHaveAccessibleName(/unread/, { timeout: 15_000 });
    await bell.click();
    const panel = p2.page.getByRole('region', { name: 'Your notifications' });
    await expect(panel).toContainText('mentioned you in an action item in "Q4 Team Health"', {
      timeout: 15_000,
    });
    await expect(panel).toContainText('Agree on decision owners');
    await panel.getByRole('button', { name: 'Mark all as read' }).click();
    await expect(bell).toHaveAccessibleName('Notifications');

    // The owner sees their assignment.
    await p1.page.goto(`/health-check/${check.id}/results`);
    await p1.page.getByRole('button', { name: /^Notifications/ }).click();
    await expect(p1.page.getByRole('region', { name: 'Your notifications' })).toContainText(
      'assigned you an action item',
    );

    // Share, export, follow-up, Plan Actions.
    await page.getByRole('button', { name: 'Share' }).click();
    await expect(page.getByText('Link copied to clipboard')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(
      `/health-check/${check.id}/results`,
    );
    // The toast sits over the header's buttons (top right), and a toast under the pointer stays open.
    await expect(page.getByText('Link copied to clipboard')).toBeHidden();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Export CSV' }).click(),
    ]);
    const csv = await readFile(await download.path(), 'utf8');
    expect(csv.split('\r\n')[0]).toContain('Rank,Component,Category,Healthy');
    expect(csv).toContain('Agree on decision owners');

    await expect(page.getByLabel('Follow-up date')).not.toHaveValue('');
    await page.getByRole('button', { name: 'Schedule Follow-up' }).click();
    await expect(page.getByTestId('follow-up')).toContainText('Follow-up scheduled for');
    await expect(page.getByRole('link', { name: 'Add to calendar (.ics)' })).toBeVisible();

    await page.getByRole('button', { name: 'Plan Actions' }).click();
    await expect(page.getByRole('button', { name: 'Plan Actions' })).toHaveCount(0);
    await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 15_000 });
    await expectAccessible(page);

    // Print layout: no app chrome or buttons, every area's details (comments, items) expanded; prints to PDF.
    await page.emulateMedia({ media: 'print' });
    await expect(page.locator('#admin-sidebar')).toBeHidden();
    await expect(page.getByRole('button', { name: 'Share' })).toBeHidden();
    await expect(page.getByRole('heading', { name: 'Next Steps' })).toBeHidden();
    await expect(page.getByText('Decisions keep changing after the meeting')).toBeVisible();
    const pdf = await page.pdf({ format: 'A4' });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    await page.emulateMedia({ media: 'screen' });

    // Strangers get the spec's not-found text, never figures.
    const stranger = await browser.newContext();
    const strangerPage = await stranger.newPage();
    await signUpAdmin(strangerPage, mailDir, { companyName: 'Other Co' });
    await strangerPage.goto(`/health-check/${check.id}/results`);
    await expect(strangerPage.getByRole('heading', { name: 'Error Loading Results' })).toBeVisible();
    await expect(strangerPage.getByText('Health check not found')).toBeVisible();
    await expect(strangerPage.getByText(first)).toHaveCount(0);

    for (const context of [p1.context, p2.context, p3.context, stranger]) await context.close();
  });

  test('reads well at 360 px', async ({ page, browser, mailDir }) => {
    test.setTimeout(120_000);
    const admin = await signUpAdmin(page, mailDir, { companyName: 'Narrow Co' });
    const check = await launchThroughApi(page, {
      workspaceId: admin.workspaceId,
      title: 'Narrow check',
      minResponses: 1,
    });
    const one = await participant(browser, mailDir, check.id, 'Nia Narrow', [
      'fire-warning',
      'healthy',
      'needs-improvement',
    ]);
    // Figures open when collection ends.
    const voting = await page.request.post(`/api/health-checks/${check.id}/phase`, { data: { to: 'vote' } });
    expect(voting.status()).toBe(200);
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(`/admin/health-check/${check.id}/results`);
    await expect(page.getByTestId('prioritized-area')).toHaveCount(3);
    // Below 1024 px the bell sits in the admin top bar (one bell on screen).
    await expect(page.getByRole('button', { name: /^Notifications/ }).filter({ visible: true })).toHaveCount(
      1,
    );
    await expect(page.getByRole('banner').getByRole('button', { name: /^Notifications/ })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectAccessible(page);
    await one.context.close();
  });
});
