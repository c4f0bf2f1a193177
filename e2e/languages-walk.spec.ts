import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { addActiveMember, joinedParticipant, linkIn, signUpAdmin, uniqueEmail } from './support/accounts';
import { wordsIn } from './support/english';
import { expect, test } from './support/fixtures';
import { launchLoop } from './support/loops';
import { waitForMail } from './support/mail-capture';
import { collectProblems, pseudoAdminWithCheck, useLanguage, walkRoute } from './support/pseudo-locale';

// Issue 34: 'a browser test walks every route in it [en-XA] and fails on any visible text without the markers or
// any clipped control'. languages.spec.ts walks the admin's screens of a launched check; this walks the rest: a
// check through its phases with results and action items, the participant's screens, a launched loop's screens
// and its answer pages, the links of e-mails, the template screens and the error screens, with the dialogs that
// matter open; the participant's and the e-mailed pages at a phone's width. What people write is in the
// pseudo-locale's letters, so the walk tells it from a miss.

/** Participants and people opening an e-mail's link often do it on a phone: their pages are walked 360 px wide. */
const PHONE = { viewport: { width: 360, height: 800 } };

/** The en-XA words of the web's catalogue, to find controls by their names. */
const xa = wordsIn('en-XA');

/** Clicks the control named by `key` and adds the dialog it opens to `problems`. */
async function walkDialog(page: Page, where: string, key: string, problems: string[]) {
  await page
    .getByRole('button', { name: xa.t(key) })
    .first()
    .click({ timeout: 10_000 });
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.waitForLoadState('networkidle');
  await collectProblems(page, `${where} (${key} dialog)`, problems);
  await page.keyboard.press('Escape');
}

/** Sends the page's form empty and adds the errors it shows to `problems`. */
async function walkEmptyForm(page: Page, where: string, problems: string[]) {
  await page.locator('main form button[type="submit"]').first().click({ timeout: 10_000 });
  await expect(page.locator('main [aria-invalid="true"], main [role="alert"]').first()).toBeVisible();
  await collectProblems(page, `${where} (sent empty)`, problems);
}

test.describe('pseudo-locales (outside production): the wider walk', () => {
  test.describe.configure({ timeout: 180_000 });

  test('en-XA: a check through its phases, its results and action items, and the participant and e-mailed pages', async ({
    browser,
    baseURL,
    mailDir,
  }) => {
    const context = await browser.newContext({ baseURL });
    const setup = await context.newPage();
    const { admin, check } = await pseudoAdminWithCheck(setup, mailDir);
    // Three participants rate every area (the insights' heat map shows a team from 3 responses); the first one's
    // pages are walked, in a browser of their own.
    const people = await browser.newContext({ baseURL, ...PHONE });
    const problems: string[] = [];
    let components: string[] = [];
    for (const [name, ratings] of [
      ['Ƥȧŧ Ƥȧřŧīƈīƥȧƞŧ', ['fire-warning', 'needs-improvement', 'healthy']],
      ['Řȧḗ Řȧŧḗř', ['fire-warning', 'fire-warning', 'healthy']],
      ['Ŀḗḗ Ŀīşŧḗƞḗř', ['needs-improvement', 'healthy', 'dont-know']],
    ] as const) {
      const own = components.length === 0 ? people : await browser.newContext({ baseURL });
      const joined = await joinedParticipant(own, mailDir, check.id, name, uniqueEmail('participant'));
      await joined.page.close();
      if (own === people) {
        // The participant's form, before they rate.
        await useLanguage(people, baseURL);
        await walkRoute(people, `/health-check/${check.id}`, problems, {
          ready: (page) => page.getByRole('radio').first(),
        });
      }
      const form = (await (await own.request.get(`/api/health-checks/${check.id}/participation`)).json()) as {
        components: { id: string }[];
      };
      components = form.components.map((c) => c.id);
      const submitted = await own.request.post(`/api/health-checks/${check.id}/submit`, {
        data: {
          votes: Object.fromEntries(components.map((id, i) => [id, ratings[i] ?? 'healthy'])),
          comments: { [components[0]!]: 'Ŧǿǿ ḿȧƞẏ ḿḗḗŧīƞɠş' },
          last_component_index: components.length - 1,
        },
      });
      expect(submitted.status(), await submitted.text()).toBe(200);
      if (own !== people) await own.close();
    }
    await useLanguage(context, baseURL);

    // Collecting, answered: the participant's pages.
    for (const route of [
      `/health-check/${check.id}/complete`,
      '/dashboard',
      '/account-settings/notifications',
      '/account-settings/security',
    ])
      await walkRoute(people, route, problems);
    await walkRoute(context, `/admin/health-check/${check.id}/manage`, problems, {
      then: (page) => walkDialog(page, 'manage', 'healthChecks.shareButton', problems),
    });

    // Voting.
    const moved = await setup.request.post(`/api/health-checks/${check.id}/phase`, { data: { to: 'vote' } });
    expect(moved.status(), await moved.text()).toBe(200);
    await walkRoute(people, `/health-check/${check.id}/voting`, problems, {
      ready: (page) => page.getByTestId('vote-tally'),
    });
    await walkRoute(people, `/health-check/${check.id}/vote`, problems);
    await walkRoute(context, `/admin/health-check/${check.id}/manage`, problems, {
      then: (page) => walkDialog(page, 'manage (voting)', 'healthChecks.phaseAction.summarize', problems),
    });
    const voted = await people.request.put(`/api/health-checks/${check.id}/votes`, {
      data: { allocation: { [components[0]!]: 3, [components[1]!]: 2 } },
    });
    expect(voted.status(), await voted.text()).toBe(200);
    await walkRoute(people, `/health-check/${check.id}/complete`, problems);

    // Summarize, with action items: the results of both.
    const summarized = await setup.request.post(`/api/health-checks/${check.id}/phase`, {
      data: { to: 'summarize' },
    });
    expect(summarized.status(), await summarized.text()).toBe(200);
    for (const [description, status] of [
      ['Ȧɠřḗḗ ǿƞ ḓḗƈīşīǿƞ ǿẇƞḗřş', 'in-progress'],
      ['Şħǿřŧḗř şŧȧƞḓŭƥş', 'pending'],
      ['Ƥȧīř ǿƞ řḗṽīḗẇş', 'completed'],
    ] as const) {
      const created = await setup.request.post(`/api/health-checks/${check.id}/action-items`, {
        data: {
          description,
          ownerId: admin.userId,
          dueDate: '2027-01-31',
          status,
          componentId: components[0]!,
        },
      });
      expect(created.status(), await created.text()).toBe(201);
    }
    await walkRoute(context, `/admin/health-check/${check.id}/results`, problems, {
      ready: (page) => page.getByTestId('action-item'),
      then: (page) => walkDialog(page, 'results', 'results.actionItem.add', problems),
    });
    await walkRoute(context, `/admin/health-checks/${check.id}/results`, problems);
    await walkRoute(people, `/health-check/${check.id}/results`, problems, {
      ready: (page) => page.getByTestId('overall-health'),
    });
    await walkRoute(people, '/dashboard', problems);
    await walkRoute(context, '/admin/dashboard', problems, {
      then: (page) => walkDialog(page, 'dashboard', 'dashboard.share', problems),
    });
    await walkRoute(context, '/admin/insights', problems, {
      ready: (page) => page.getByTestId('heat-map').getByTestId('heat-cell'),
      then: async (page) => {
        // A category chosen by its name in en-XA filters the map (the check's three areas are all in the first).
        const filtered = page.waitForResponse(
          (response) => /\/insights\?/.test(response.url()) && response.url().includes('category='),
        );
        await page.getByLabel(xa.t('insights.category')).selectOption({ index: 1 });
        expect((await filtered).ok()).toBe(true);
        await expect(page.getByTestId('heat-map').getByTestId('heat-cell')).toHaveCount(3);
        await collectProblems(page, '/admin/insights (a category)', problems);
      },
    });

    // The links of e-mails, opened by someone signed out: an invitation, and a reminder's unsubscribe link.
    const invited = uniqueEmail('invited');
    const invitation = await setup.request.post(`/api/workspaces/${admin.workspaceId}/invitations`, {
      data: { email: invited, role: 'Ɛƞɠīƞḗḗř' },
    });
    expect(invitation.status(), await invitation.text()).toBe(201);
    const invitationMail = await waitForMail(mailDir, invited, /invited to join/);
    await walkRoute(context, '/admin/team-management', problems, {
      then: (page) => walkDialog(page, 'team', 'team.invite', problems),
    });
    await walkRoute(context, '/admin/team-management/invitations', problems);
    const visitor = await browser.newContext({ baseURL, ...PHONE });
    await useLanguage(visitor, baseURL);
    const invite = new URL(linkIn(invitationMail.text)).pathname;
    await walkRoute(visitor, invite, problems, { then: (page) => walkEmptyForm(page, invite, problems) });
    for (const route of ['/login', '/admin/signup', `/signup/health-check/${check.id}`])
      await walkRoute(visitor, route, problems, { then: (page) => walkEmptyForm(page, route, problems) });
    for (const route of [
      `/signup/${check.id}`,
      '/unsubscribe?token=not-a-token',
      '/invite/not-a-token',
      '/loop-answer/not-a-token',
      `/join/${randomUUID()}`,
      '/invalid-link',
      '/error',
      '/setup-error',
    ])
      await walkRoute(visitor, route, problems);

    expect(problems).toEqual([]);
    await visitor.close();
    await people.close();
    await context.close();
  });

  test("en-XA: a launched loop's screens and answer pages, the templates, the workspace settings", async ({
    browser,
    baseURL,
    mailDir,
  }) => {
    const context = await browser.newContext({ baseURL });
    const setup = await context.newPage();
    const admin = await signUpAdmin(setup, mailDir, { fullName: 'Ŀǿǿƥ Ȧḓḿīƞ', companyName: 'Ŀǿǿƥ Ƈǿ' });
    const member = await addActiveMember(setup, mailDir, {
      workspaceId: admin.workspaceId,
      fullName: 'Ḿȧẏȧ Ḿḗḿƀḗř',
      email: uniqueEmail('member'),
    });
    const title = 'Ẇḗḗķŀẏ Ƥŭŀşḗ';
    const loopId = await launchLoop(setup, admin.workspaceId, title, {
      description: 'Ħǿẇ īş ŧħḗ ŧḗȧḿ ḓǿīƞɠ',
      questions: [
        { kind: 'scale', text: 'Ħǿẇ ẇȧş ẏǿŭř ẇḗḗķ', lowLabel: 'Řǿŭɠħ', highLabel: 'Ɠřḗȧŧ' },
        { kind: 'enps', text: 'Ẇǿŭŀḓ ẏǿŭ řḗƈǿḿḿḗƞḓ ŧħḗ ŧḗȧḿ' },
        { kind: 'text', text: 'Ȧƞẏŧħīƞɠ ḗŀşḗ' },
      ],
      anonymous: false,
      minResponses: 1,
    });
    const mail = await waitForMail(mailDir, member.email, new RegExp(`^${title}: round 1 is open$`));
    const token = /\/loop-answer\/([A-Za-z0-9_.-]+)/.exec(mail.text)?.[1];
    if (!token) throw new Error('no answer link in the e-mail');
    await useLanguage(context, baseURL);
    const problems: string[] = [];

    // The member's answer page from the e-mail, before and after answering; the admin's own round page.
    const visitor = await browser.newContext({ baseURL, ...PHONE });
    await useLanguage(visitor, baseURL);
    await walkRoute(visitor, `/loop-answer/${token}`, problems, {
      then: (page) => walkEmptyForm(page, '/loop-answer', problems),
    });
    const answerForm = (await (await visitor.request.get(`/api/loop-answer/${token}`)).json()) as {
      questions: { id: string; kind: string }[];
    };
    const answered = await visitor.request.post(`/api/loop-answer/${token}`, {
      data: {
        answers: Object.fromEntries(
          answerForm.questions.map((q) => [
            q.id,
            q.kind === 'text' ? 'Ƒḗẇḗř ḿḗḗŧīƞɠş' : q.kind === 'enps' ? 8 : 4,
          ]),
        ),
      },
    });
    expect(answered.status(), await answered.text()).toBe(201);
    await walkRoute(visitor, `/loop-answer/${token}`, problems);
    const rounds = (await (await setup.request.get('/api/my/loop-rounds')).json()) as {
      rounds: { roundId: string; loopId: string }[];
    };
    const round = rounds.rounds.find((r) => r.loopId === loopId);
    if (!round) throw new Error("the admin's open round is not listed");
    await walkRoute(context, `/loop-rounds/${round.roundId}`, problems);
    await walkRoute(context, '/dashboard', problems);
    await walkRoute(context, '/admin/dashboard', problems, {
      then: async (page) => {
        await page.getByRole('button', { name: xa.t('dashboard.filterLoops') }).click({ timeout: 10_000 });
        await expect(page.getByRole('article', { name: title })).toBeVisible();
        await collectProblems(page, '/admin/dashboard (loops)', problems);
      },
    });

    // The admin's screens of the loop: while the round is open, then with a closed round.
    await walkRoute(context, `/admin/completion-status/${loopId}`, problems, {
      then: (page) => walkDialog(page, 'completion status', 'loopStatus.startNextRoundNow', problems),
    });
    await walkRoute(context, `/admin/configure-loop/${loopId}`, problems);
    const closed = await setup.request.post(`/api/loops/${loopId}/rounds/${round.roundId}/close`);
    expect(closed.status(), await closed.text()).toBe(200);
    for (const route of [
      `/admin/completion-status/${loopId}`,
      `/admin/loop-results/${loopId}`,
      `/admin/loop-insights/${loopId}/overview`,
    ])
      await walkRoute(context, route, problems);

    // Templates: a health check's and a loop's open their configure screens.
    const templates = (await (await setup.request.get('/api/templates')).json()) as {
      templates: { id: string; type: string }[];
    };
    for (const type of ['health-check', 'loop']) {
      const template = templates.templates.find((t) => t.type === type);
      if (!template) throw new Error(`no ${type} template`);
      await walkRoute(context, `/admin/templates/${template.id}/configure`, problems);
    }
    await walkRoute(context, `/admin/health-check/${randomUUID()}/results`, problems);
    await walkRoute(context, `/admin/completion-status/${randomUUID()}`, problems);
    await walkRoute(context, '/admin/account-settings', problems, {
      then: (page) => walkDialog(page, 'account settings', 'deletion.deleteOrganization', problems),
    });
    await walkRoute(context, '/admin/workspace-settings', problems);
    await walkRoute(context, '/admin/webhooks', problems);

    expect(problems).toEqual([]);
    await visitor.close();
    await context.close();
  });
});
