import type { Browser, Page } from '@playwright/test';
import {
  addActiveMember,
  completeParticipation,
  launchThroughApi,
  signUpAdmin,
  uniqueEmail,
} from './support/accounts';
import { expect, expectAccessible, test } from './support/fixtures';
import { launchLoop } from './support/loops';
import { waitForMail } from './support/mail-capture';

/** A workspace of the signed-in owner's organisation, through the API. */
async function workspace(page: Page, name: string) {
  const response = await page.request.post('/api/workspaces', { data: { name } });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { workspace: { id: string } }).workspace.id;
}

/**
 * A team's completed health check (its first three catalogue components, minimum 3 responses): each rating list is
 * one participant's, who signs up, verifies by e-mail and submits in a browser context of their own; then the
 * owner moves the check through voting to completed.
 */
async function completedCheck(
  page: Page,
  browser: Browser,
  mailDir: string,
  workspaceId: string,
  title: string,
  people: string[][],
) {
  const check = await launchThroughApi(page, { workspaceId, title, minResponses: 1 });
  for (const [index, ratings] of people.entries()) {
    const context = await browser.newContext();
    await completeParticipation(context, mailDir, check.id, `${title} Person ${index + 1}`, ratings);
    await context.close();
  }
  for (const to of ['vote', 'summarize'])
    expect((await page.request.post(`/api/health-checks/${check.id}/phase`, { data: { to } })).ok()).toBe(
      true,
    );
  return check.id;
}

/**
 * A loop of the workspace sent to everyone in it ('Start now'): each of `scores` is one member's eNPS answer,
 * given through the personal link of their e-mail; then the owner closes the round.
 */
async function loopWithClosedRound(
  page: Page,
  mailDir: string,
  workspaceId: string,
  title: string,
  people: { email: string }[],
  scores: number[],
) {
  const loopId = await launchLoop(page, workspaceId, title, {
    description: '',
    questions: [
      { kind: 'scale', text: 'How focused were you?', lowLabel: 'Scattered', highLabel: 'Deep focus' },
      { kind: 'enps', text: 'Would you recommend working here?' },
    ],
    reminder: false,
  });
  for (const [index, score] of scores.entries()) {
    const mail = await waitForMail(mailDir, people[index]!.email, new RegExp(`^${title}: round 1 is open$`));
    const token = /\/loop-answer\/([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
    const form = (await (await page.request.get(`/api/loop-answer/${token}`)).json()) as {
      questions: { id: string; kind: string }[];
    };
    const answers = Object.fromEntries(form.questions.map((q) => [q.id, q.kind === 'enps' ? score : 4]));
    const answered = await page.request.post(`/api/loop-answer/${token}`, { data: { answers } });
    expect(answered.status(), await answered.text()).toBe(201);
  }
  const detail = (await (await page.request.get(`/api/loops/${loopId}`)).json()) as {
    loop: { currentRound: { id: string } };
  };
  const closed = await page.request.post(`/api/loops/${loopId}/rounds/${detail.loop.currentRound.id}/close`);
  expect(closed.status(), await closed.text()).toBe(200);
}

test.describe('organisation insights', () => {
  test('the owner reads three teams on the heat map, opens a cell, and appoints an organisation admin', async ({
    page,
    browser,
    mailDir,
  }) => {
    test.setTimeout(300_000);
    const owner = await signUpAdmin(page, mailDir, { companyName: 'Insight Co' });
    const fire = ['fire-warning', 'healthy', 'needs-improvement'];
    const healthy = ['healthy', 'healthy', 'healthy'];
    const platform = await workspace(page, 'Platform');
    const mobile = await workspace(page, 'Mobile');
    // The owner's first workspace, renamed Zulu: fire warnings on the first component.
    expect(
      (await page.request.patch(`/api/workspaces/${owner.workspaceId}`, { data: { name: 'Zulu' } })).ok(),
    ).toBe(true);
    const zuluCheck = await completedCheck(page, browser, mailDir, owner.workspaceId, 'Zulu', [
      fire,
      fire,
      fire,
    ]);
    await completedCheck(page, browser, mailDir, platform, 'Platform', [healthy, healthy, healthy]);
    // Two responses: enough for the team (its minimum is 1), never for the organisation's view.
    await completedCheck(page, browser, mailDir, mobile, 'Mobile', [fire, fire]);

    await page.goto('/admin/dashboard');
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Insights' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Organisation insights' })).toBeVisible();
    const map = page.getByTestId('heat-map');
    await expect(map.getByTestId('team-column')).toHaveCount(2);
    await expect(map.getByRole('columnheader', { name: /Organisation \(2 teams\)/ })).toBeVisible();
    await expect(page.getByTestId('left-out').first()).toContainText(
      '1 team is left out: 1 with fewer responses than their minimum',
    );
    // Weakest first by default: Zulu, then Platform.
    await expect(map.getByTestId('team-column')).toHaveText([/Zulu/, /Platform/]);
    // Words, not colour alone: Zulu's first component is urgent, Platform's healthy.
    const decisions = map
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: /Decisions/ }) });
    const cells = decisions.getByTestId('heat-cell');
    await expect(cells.first()).toContainText('Urgent');
    await expect(cells.last()).toContainText('Healthy');
    await expect(cells.first()).toHaveAccessibleName(
      /in Zulu: Urgent\. Needs Immediate Attention: 0% healthy, 0% needs improvement, 100% fire warning/,
    );
    await expect(page.getByTestId('top-components')).toContainText('Decisions');
    await expectAccessible(page);

    await page.getByLabel('Sort teams by').selectOption('name');
    await expect(map.getByTestId('team-column')).toHaveText([/Platform/, /Zulu/]);
    await expect(page).toHaveURL(/sort=name/);

    // 360 px: the map scrolls inside its own frame; the page itself does not scroll sideways.
    await page.setViewportSize({ width: 360, height: 780 });
    await expect(map).toBeVisible();
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    await expectAccessible(page);
    await page.setViewportSize({ width: 1280, height: 800 });

    await decisions.getByTestId('heat-cell').last().click();
    await expect(page).toHaveURL(new RegExp(`/admin/health-check/${zuluCheck}/results#component-c1$`));
    const area = page.locator('#component-c1');
    await expect(area).toBeVisible();
    await expect(area.locator('button[aria-expanded]')).toHaveAttribute('aria-expanded', 'true');

    // The owner appoints a member of Platform as an organisation admin from Team Management.
    const email = uniqueEmail('olga');
    const invited = await page.request.post(`/api/workspaces/${owner.workspaceId}/invitations`, {
      data: { email, role: 'People Partner' },
    });
    expect(invited.status()).toBe(201);
    const mail = await waitForMail(mailDir, email, /invited/);
    const token = /\/invite\/([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
    const olga = await browser.newContext({ baseURL: new URL(page.url()).origin });
    const accepted = await olga.request.post(`/api/invitations/${token}/accept-signup`, {
      data: { fullName: 'Olga Org', password: 'olga-password-1', confirmPassword: 'olga-password-1' },
    });
    expect(accepted.status(), await accepted.text()).toBe(200);
    const olgaPage = await olga.newPage();
    await olgaPage.goto('/admin/dashboard');
    await expect(olgaPage.getByRole('link', { name: 'Dashboard' })).toBeVisible();
    await expect(olgaPage.getByRole('link', { name: 'Insights' })).toHaveCount(0);

    await page.goto('/admin/team-management');
    await page.getByRole('button', { name: 'Edit Olga Org' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Olga Org' });
    await dialog.getByLabel('Organisation admin').check();
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('member-row').filter({ hasText: 'Olga Org' })).toContainText(
      'Organisation admin',
    );

    // Olga sees the whole organisation, Platform and Mobile included, without being a member of them.
    await olgaPage.goto('/admin/insights');
    await expect(olgaPage.getByTestId('heat-map').getByTestId('team-column')).toHaveCount(2);
    await olga.close();
  });

  test("the owner reads each team's latest loop eNPS and participation, and the organisation trend", async ({
    page,
    mailDir,
  }) => {
    test.setTimeout(180_000);
    const owner = await signUpAdmin(page, mailDir, { companyName: 'Pulse Org' });
    expect(
      (await page.request.patch(`/api/workspaces/${owner.workspaceId}`, { data: { name: 'Platform' } })).ok(),
    ).toBe(true);
    const mobile = await workspace(page, 'Mobile');
    const platformPeople = [];
    for (const name of ['Ana Platform', 'Bo Platform', 'Cy Platform'])
      platformPeople.push(
        await addActiveMember(page, mailDir, { workspaceId: owner.workspaceId, fullName: name }),
      );
    const mobilePeople = [];
    for (const name of ['Di Mobile', 'Ed Mobile'])
      mobilePeople.push(await addActiveMember(page, mailDir, { workspaceId: mobile, fullName: name }));
    // Platform: 3 of 4 answer (the owner is in the audience too): two promoters, one detractor: eNPS +33.
    await loopWithClosedRound(page, mailDir, owner.workspaceId, 'Platform Pulse', platformPeople, [10, 9, 0]);
    // Mobile: 2 answers, under the floor of 3: left out, no figure.
    await loopWithClosedRound(page, mailDir, mobile, 'Mobile Pulse', mobilePeople, [0, 0]);

    await page.goto('/admin/insights');
    const loops = page.getByRole('region', { name: 'Loops', exact: true });
    await expect(loops.getByRole('heading', { level: 2, name: 'Loops' })).toBeVisible();
    const rows = loops.getByTestId('loop-row');
    await expect(rows).toHaveCount(1);
    const platform = rows.filter({ has: page.getByRole('rowheader', { name: 'Platform' }) });
    await expect(platform).toContainText('Platform Pulse');
    await expect(platform).toContainText('75% (3 of 4)');
    await expect(platform).toContainText('+33 (3 answers)');
    await expect(loops.getByTestId('loops-left-out')).toContainText(
      'The organisation trend pools 1 loop of 1 team. 1 loop is left out (1 team with no loop shown)',
    );
    await loops.getByText('Loops left out').click();
    await expect(loops.getByTestId('loops-left-out')).toContainText('Mobile: Mobile Pulse');
    const month = new Date().toLocaleDateString('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });
    await expect(loops.getByTestId('loop-trend').getByRole('row', { name: new RegExp(month) })).toContainText(
      '75% (3 of 4)+33 (3 answers)',
    );
    await expectAccessible(page);

    await page.setViewportSize({ width: 360, height: 780 });
    await expect(platform).toBeVisible();
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    await expectAccessible(page);
  });

  test('an organisation without completed checks gets an empty state, readable at 360 px', async ({
    page,
    mailDir,
  }) => {
    await page.setViewportSize({ width: 360, height: 780 });
    await signUpAdmin(page, mailDir, { companyName: 'Narrow Co' });
    await page.goto('/admin/insights');
    await expect(page.getByRole('heading', { level: 1, name: 'Organisation insights' })).toBeVisible();
    await expect(page.getByText('No team has a completed health check in this period yet.')).toBeVisible();
    await expect(page.getByText('No loop has a closed round in this period yet.')).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectAccessible(page);
  });
});
