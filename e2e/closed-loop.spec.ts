import type { Browser, Page } from '@playwright/test';
import { addActiveMember, joinedParticipant, launchThroughApi, signUpAdmin } from './support/accounts';
import { expect, expectAccessible, test } from './support/fixtures';
import { waitForMail } from './support/mail-capture';

/** A participant signed in in their own browser context and joined to the check (through the API). */
async function joined(browser: Browser, mailDir: string, healthCheckId: string, fullName: string) {
  const context = await browser.newContext();
  const { page } = await joinedParticipant(context, mailDir, healthCheckId, fullName);
  return { context, page };
}

/** Collect → vote → summarize, as the facilitator moves a check on. */
const toSummarize = async (page: Page, id: string) => {
  for (const to of ['vote', 'summarize']) {
    const response = await page.request.post(`/api/health-checks/${id}/phase`, { data: { to } });
    expect(response.status(), await response.text()).toBe(200);
  }
};

test('the closed loop: an action from the worst area, done, asked about in the next check, its effect shown, insights show it', async ({
  page,
  browser,
  mailDir,
}) => {
  test.setTimeout(300_000);
  const admin = await signUpAdmin(page, mailDir, { companyName: 'Loop Co' });

  // The first check: one participant rates the first area a fire warning, the others healthy.
  const first = await launchThroughApi(page, { workspaceId: admin.workspaceId, title: 'Spring check' });
  const rater = await joined(browser, mailDir, first.id, 'Rae Rater');
  const read = (await (
    await rater.context.request.get(`/api/health-checks/${first.id}/participation`)
  ).json()) as { components: { id: string; title: string }[] };
  const worst = read.components[0]!.title;
  const submitted = await rater.context.request.post(`/api/health-checks/${first.id}/submit`, {
    data: {
      votes: Object.fromEntries(read.components.map((c, i) => [c.id, i === 0 ? 'fire-warning' : 'healthy'])),
      comments: {},
      last_component_index: 0,
    },
  });
  expect(submitted.status()).toBe(200);
  await toSummarize(page, first.id);

  // The admin adds an action item from the worst area and marks it done.
  await page.goto(`/admin/health-check/${first.id}/results`);
  const worstArea = page.getByTestId('prioritized-area').first();
  await expect(worstArea).toContainText(worst);
  await worstArea.getByRole('button', { expanded: false }).click();
  await worstArea.getByRole('button', { name: 'Add Action Item' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Action Item' });
  await dialog.getByRole('combobox', { name: 'Description' }).fill('Write down every decision');
  await expect(dialog.getByLabel('Area')).toHaveValue(/.+/);
  const owner = dialog.getByLabel('Owner').locator('option', { hasText: 'Alex Admin' });
  await dialog.getByLabel('Owner').selectOption(await owner.getAttribute('value'));
  await dialog.getByLabel('Status').selectOption('completed');
  await dialog.getByRole('button', { name: 'Add Action Item' }).click();
  await expect(page.getByText('Action item added')).toBeVisible();
  const listed = page.locator('#action-items').getByTestId('action-item');
  await expect(listed).toContainText(`Area: ${worst}`);
  await expect(listed).toContainText('Completed');
  await expect(listed).toContainText(/Done \w{3} \d+, \d{4}/);

  // An open action ten days past its due date is listed on the dashboard to follow up (nudges.ts: from 7 days).
  const due = new Date(Date.now() - 10 * 24 * 3600_000).toISOString().slice(0, 10);
  const overdue = await page.request.post(`/api/health-checks/${first.id}/action-items`, {
    data: { description: 'Book the retro room', ownerId: admin.userId, dueDate: due },
  });
  expect(overdue.status(), await overdue.text()).toBe(201);
  await page.goto('/admin/dashboard');
  const nudges = page.getByRole('region', { name: 'Actions to follow up' });
  await expect(nudges.getByRole('listitem')).toHaveText([
    'Book the retro roomOverdue by 10 daysSpring check · Alex Admin',
  ]);
  await expectAccessible(page);
  await page.setViewportSize({ width: 360, height: 800 });
  await expect(nudges).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.setViewportSize({ width: 1280, height: 800 });
  // With the keyboard, the action opens its check's action items.
  await nudges.getByRole('link', { name: 'Book the retro room' }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/admin/health-check/${first.id}/results#action-items$`));

  // Configure of the next check shows the action it will ask about.
  const template = (await (await page.request.get('/api/templates/new')).json()) as {
    template: { id: string };
  };
  await page.goto(`/admin/configure-health-check/${template.template.id}`);
  await page.getByRole('tab', { name: /Launch/ }).click();
  const asked = page.getByTestId('follow-up-actions');
  await expect(
    asked.getByRole('checkbox', { name: `Did "Write down every decision" help with ${worst}?` }),
  ).toBeChecked();
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 15_000 });
  await expectAccessible(page);

  // The next check asks; a participant answers at 360 px, with the keyboard.
  const second = await launchThroughApi(page, { workspaceId: admin.workspaceId, title: 'Summer check' });
  const answerer = await joined(browser, mailDir, second.id, 'Ari Answerer');
  const p = answerer.page;
  await p.setViewportSize({ width: 360, height: 800 });
  await p.goto(`/health-check/${second.id}/voting`);
  await expect(p.getByRole('heading', { name: worst })).toBeVisible();
  await p.keyboard.press('1');
  const question = p.getByRole('group', { name: `Did "Write down every decision" help with ${worst}?` });
  await expect(question).toBeVisible();
  await question.getByRole('radio', { name: 'Yes' }).focus();
  await p.keyboard.press('Space');
  await expect(question.getByRole('radio', { name: 'Yes' })).toBeChecked();
  await question.getByLabel('Comment on this action (optional)').fill('We stopped re-deciding things');
  await expectAccessible(p);
  expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await p.getByRole('button', { name: 'Next' }).click();
  for (const key of ['1', 'ArrowRight', '1']) await p.keyboard.press(key);
  await p.getByRole('button', { name: 'Submit Responses' }).click();
  await expect(p.getByRole('heading', { name: 'Phase 1 Complete!' })).toBeVisible();

  // The results show the effect.
  await toSummarize(page, second.id);
  await page.goto(`/admin/health-check/${second.id}/results`);
  const area = page.getByTestId('prioritized-area').filter({ hasText: worst });
  await area.getByRole('button', { expanded: false }).click();
  const effect = area.getByTestId('follow-up-effects');
  await expect(effect.getByRole('heading', { name: 'Actions since last check' })).toBeVisible();
  await expect(effect).toContainText('Write down every decision');
  await expect(effect).toContainText('1 (100%)');
  await expect(effect.getByTestId('follow-up-change')).toHaveText('improved from Fire Warning to Healthy');
  await expect(effect).toContainText('We stopped re-deciding things');
  await expectAccessible(page);
  await page.setViewportSize({ width: 360, height: 800 });
  await expect(effect.getByTestId('follow-up-change')).toBeVisible();
  await expectAccessible(page);
  // The print layout carries it too: every area's details print open, this one closed on screen included.
  await area.getByRole('button', { expanded: true }).click();
  await expect(effect).toBeHidden();
  await page.emulateMedia({ media: 'print' });
  await expect(effect.getByTestId('follow-up-change')).toHaveText('improved from Fire Warning to Healthy');
  await page.emulateMedia({ media: 'screen' });

  // Insights show it: the action counted as done and asked about; one answer is under the privacy floor (3), so
  // no share is shown, and neither is the component's change (each check had one response).
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/admin/insights');
  const worked = page.getByRole('region', { name: 'Actions that worked' });
  const row = worked.getByTestId('actions-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('11Too few answers to showNot compared yet');
  await expect(worked.getByTestId('actions-organisation')).toContainText('Organisation (1 team)11');
  // The table scrolls in a region reachable with the keyboard.
  const scroller = worked.getByRole('region', { name: 'Actions that worked (scrolls sideways)' });
  await scroller.focus();
  await expect(scroller).toBeFocused();
  await expectAccessible(page);
  await page.setViewportSize({ width: 360, height: 800 });
  await expect(row).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await expectAccessible(page);
  await rater.context.close();
  await answerer.context.close();
});

test("loops ask too: 'Follow-up on actions' switched on in Configure Loop, the next round asks about a done action", async ({
  page,
  mailDir,
}) => {
  test.setTimeout(180_000);
  const admin = await signUpAdmin(page, mailDir, { fullName: 'Alex Admin', companyName: 'Round Co' });
  const members = [];
  for (const fullName of ['Ana Answer', 'Bo Busy'])
    members.push(await addActiveMember(page, mailDir, { workspaceId: admin.workspaceId, fullName }));
  const check = await launchThroughApi(page, { workspaceId: admin.workspaceId, title: 'Autumn check' });
  const created = await page.request.post(`/api/health-checks/${check.id}/action-items`, {
    data: { description: 'Shorter stand-ups', ownerId: admin.userId },
  });
  expect(created.status(), await created.text()).toBe(201);
  const item = (await created.json()) as { id: string };

  // Configure Loop from the Weekly Pulse template: the switch is off by default; turned on, then launched.
  await page.goto('/admin/templates?type=loop');
  await page
    .getByRole('article', { name: 'Weekly Pulse' })
    .getByRole('link', { name: 'Use Template' })
    .click();
  const followUps = page.getByRole('switch', { name: 'Follow-up on actions' });
  await expect(followUps).not.toBeChecked();
  await followUps.click();
  await expect(followUps).toBeChecked();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Launch Loop' }).click();
  await expect(page).toHaveURL(/\/admin\/completion-status\/[0-9a-f-]{36}$/);
  const loopId = page.url().split('/').at(-1)!;

  // The action is marked done; the next round asks about it.
  const done = await page.request.patch(`/api/action-items/${item.id}`, { data: { status: 'completed' } });
  expect(done.status(), await done.text()).toBe(200);
  const opened = await page.request.post(`/api/loops/${loopId}/rounds`);
  expect(opened.status(), await opened.text()).toBe(201);

  await page.goto('/dashboard');
  await page.getByRole('link', { name: /Answer Now: Weekly Pulse, round 2/ }).click();
  await expect(page.getByRole('heading', { name: 'Actions since last round' })).toBeVisible();
  const question = page.getByRole('group', { name: 'Did "Shorter stand-ups" help?' });
  await expect(question.getByRole('radio')).toHaveCount(4);
  await expectAccessible(page);
  const groups = page.getByRole('group', { name: /^\d+\. / });
  for (let i = 0; i < (await groups.count()); i += 1) {
    const radio = groups.nth(i).getByRole('radio', { name: /^4(,|$)/ });
    if (await radio.count()) await radio.check();
  }
  await question.getByRole('radio', { name: 'Yes' }).check();
  await page.getByRole('button', { name: 'Submit Answers' }).click();
  await expect(page.getByRole('heading', { name: 'Thank you!' })).toBeVisible();

  // Ana and Bo answer by their e-mailed links (through the API), so the round reaches its minimum of 3.
  for (const [index, member] of members.entries()) {
    const mail = await waitForMail(mailDir, member.email, /^Weekly Pulse: round 2 is open$/);
    const token = /\/loop-answer\/([A-Za-z0-9_.-]+)/.exec(mail.text)?.[1];
    const read = (await (await page.request.get(`/api/loop-answer/${token}`)).json()) as {
      questions: { id: string; kind: string }[];
      followUps: { id: string }[];
    };
    const answers = Object.fromEntries(
      read.questions.filter((q) => q.kind !== 'text').map((q) => [q.id, q.kind === 'enps' ? 8 : 4]),
    );
    const followUps = { [read.followUps[0]!.id]: index === 0 ? 'yes' : 'partly' };
    const sent = await page.request.post(`/api/loop-answer/${token}`, { data: { answers, followUps } });
    expect(sent.status(), await sent.text()).toBe(201);
  }
  const status = (await (await page.request.get(`/api/loops/${loopId}`)).json()) as {
    loop: { currentRound: { id: string } };
  };
  const closed = await page.request.post(`/api/loops/${loopId}/rounds/${status.loop.currentRound.id}/close`);
  expect(closed.status(), await closed.text()).toBe(200);

  // Loop Results show the action's answers; Loop Insights 'Actions that worked'.
  await page.goto(`/admin/loop-results/${loopId}`);
  const results = page.getByTestId('round-follow-ups');
  await expect(results.getByRole('heading', { name: 'Actions since last round' })).toBeVisible();
  await expect(results).toContainText('Did "Shorter stand-ups" help?');
  await expect(results.getByRole('definition')).toHaveText(['2 (67%)', '1 (33%)', '0 (0%)', '0 (0%)']);
  await expectAccessible(page);
  await page.goto(`/admin/loop-insights/${loopId}/overview`);
  const worked = page.getByTestId('loop-actions-worked');
  await expect(worked.getByRole('definition')).toHaveText(['1', '3', '100%']);
  await expectAccessible(page);
});
