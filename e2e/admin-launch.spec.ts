import { completeParticipation, launchThroughApi, signUpAdmin, uniqueEmail } from './support/accounts';
import { expect, expectAccessible, test } from './support/fixtures';
import { waitForMail } from './support/mail-capture';

test.describe('admin: configure, launch and manage', () => {
  test("'Save as template' makes a workspace template that its admin edits, launches from and deletes (issue 32 item 4)", async ({
    page,
    mailDir,
  }) => {
    await signUpAdmin(page, mailDir, { companyName: 'Template Co' });
    await page.goto('/admin/templates?type=health-check');
    await page
      .getByRole('article', { name: 'Team Health Check' })
      .getByRole('link', { name: 'Use Template' })
      .click();
    await expect(page.getByRole('heading', { name: 'Configure Health Check' })).toBeVisible();
    await page.getByRole('switch', { name: '🧭 Decisions' }).click();
    await expect(page.getByText('28 of 29 components enabled')).toBeVisible();
    await page.getByRole('button', { name: 'Save as template' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save as template' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Our squad check');
    await dialog.getByRole('textbox', { name: 'Description' }).fill('Without decisions');
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Save Template' }).click();
    await expect(dialog).toBeHidden();

    await page.goto('/admin/templates?type=health-check');
    const ours = page.getByRole('article', { name: 'Our squad check' });
    await expect(ours.getByText('Workspace', { exact: true })).toBeVisible();
    await expect(ours.getByText('Without decisions')).toBeVisible();
    await ours.getByRole('button', { name: 'Edit Our squad check' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Our squad check' });
    await edit.getByRole('textbox', { name: 'Name' }).fill('Our squad check v2');
    await edit.getByRole('button', { name: 'Save', exact: true }).click();
    const renamed = page.getByRole('article', { name: 'Our squad check v2' });
    await expect(renamed).toBeVisible();

    // Configuring from it starts from what was saved: 28 components.
    await renamed.getByRole('link', { name: 'Use Template Our squad check v2' }).click();
    await expect(page.getByRole('heading', { name: 'Configure Health Check' })).toBeVisible();
    await expect(page.getByText('28 of 29 components enabled')).toBeVisible();

    await page.goto('/admin/templates?type=health-check');
    await page.getByRole('button', { name: 'Delete Our squad check v2' }).click();
    await page
      .getByRole('dialog', { name: 'Delete Our squad check v2?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expect(page.getByRole('article', { name: 'Our squad check v2' })).toHaveCount(0);
    await expect(page.getByRole('article', { name: 'Team Health Check' })).toBeVisible();
  });

  test('template → configure → launch → share a working join link', async ({
    page,
    context,
    mailDir,
    browser,
    baseURL,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signUpAdmin(page, mailDir, { companyName: 'Launch Co' });

    await page.goto('/admin/dashboard');
    await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
    await expect(page.getByText('No Items Found')).toBeVisible();
    await page.getByRole('link', { name: 'Create Health Check' }).click();
    await expect(page).toHaveURL(/\/admin\/templates\?type=health-check$/);
    await expect(page.getByRole('button', { name: 'Health Checks' })).toHaveAttribute('aria-pressed', 'true');
    const card = page.getByRole('article', { name: 'Team Health Check' });
    await expect(card.getByText('Global')).toBeVisible();
    await expectAccessible(page);
    await card.getByRole('link', { name: 'Use Template' }).click();

    await expect(page.getByRole('heading', { name: 'Configure Health Check' })).toBeVisible();
    await expect(page.getByText('Workspace: Launch Co')).toBeVisible();
    await expect(page.getByLabel('Title')).toHaveValue('New Health Check');
    await expect(page.getByLabel('Description')).toHaveValue(
      "A collaborative assessment of our organization's health",
    );
    await page.getByLabel('Title').fill('Q3 Engineering Health');
    await expect(page.getByText('29 of 29 components enabled')).toBeVisible();
    await page.getByRole('switch', { name: '🧭 Decisions' }).click();
    await expect(page.getByText('28 of 29 components enabled')).toBeVisible();
    await expect(page.getByText('Rating Options')).toBeVisible();
    await expect(page.getByText('needs urgent attention')).toBeVisible();
    await expectAccessible(page);

    await page.getByRole('tab', { name: 'Team' }).click();
    await expect(page.getByText(/No team members added yet/)).toBeVisible();
    const teammate = uniqueEmail('teammate');
    for (const email of [teammate, teammate.toUpperCase()]) {
      await page.getByLabel('Team member email').fill(email);
      await page.getByRole('button', { name: 'Add' }).click();
    }
    await expect(page.getByRole('list', { name: 'Team members' }).getByRole('listitem')).toHaveCount(2);
    await page.getByRole('button', { name: `Remove ${teammate.toUpperCase()}`, exact: true }).click();
    await expect(page.getByRole('list', { name: 'Team members' }).getByRole('listitem')).toHaveCount(1);

    // Out of range: the message shows in place and nothing is launched.
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByLabel('Votes per person').fill('11');
    await page.getByRole('tab', { name: 'Launch' }).click();
    await page.getByRole('button', { name: 'Launch Health Check' }).click();
    await expect(
      page.getByRole('alert').filter({ hasText: 'Votes per person must be a number from 1 to 10' }),
    ).toBeVisible();
    await page.getByRole('tab', { name: 'Settings' }).click();
    await expect(
      page
        .getByRole('tabpanel', { name: 'Settings' })
        .getByText('Votes per person must be a number from 1 to 10'),
    ).toBeVisible();
    await page.getByLabel('Votes per person').fill('5');
    await page.getByLabel('Minimum responses').fill('1');

    await page.getByRole('tab', { name: 'Launch' }).click();
    // A double click still launches one check (the launch key is per form).
    await page.getByRole('button', { name: 'Launch Health Check' }).dblclick();
    const dialog = page.getByRole('dialog', { name: 'Share Health Check' });
    await expect(dialog).toBeVisible();
    const joinUrl = await dialog.getByLabel('Join link').inputValue();
    expect(joinUrl).toMatch(new RegExp(`^${baseURL}/join/[0-9a-f-]{36}$`));
    await expect(dialog.getByRole('link', { name: 'Email' })).toHaveAttribute(
      'href',
      /^mailto:\?subject=Health%20Check%20Invitation&body=/,
    );
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Copy' }).click();
    await expect(page.getByText('Link copied to clipboard')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(joinUrl);

    const invitation = await waitForMail(mailDir, teammate, /Health Check Invitation/);
    expect(invitation.text).toContain(joinUrl);

    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(page).toHaveURL(/\/admin\/health-check\/[0-9a-f-]{36}\/manage$/);
    await expect(page.getByRole('heading', { name: 'Q3 Engineering Health' })).toBeVisible();
    const dashboard = (await (await page.request.get('/api/dashboard')).json()) as {
      items: { title: string }[];
    };
    expect(dashboard.items.filter((item) => item.title === 'Q3 Engineering Health')).toHaveLength(1);

    // The link works for someone signed out: it leads to the participant sign-up of this check.
    const visitor = await browser.newContext();
    const visitorPage = await visitor.newPage();
    await visitorPage.goto(joinUrl);
    const id = joinUrl.split('/').at(-1) ?? '';
    await expect(visitorPage).toHaveURL(new RegExp(`/signup(/health-check)?/${id}$`));
    await expect(visitorPage.getByText('Q3 Engineering Health')).toBeVisible();
    await visitor.close();
  });

  test("manage: 'Start Voting Phase' needs the minimum, then moves on after confirmation", async ({
    page,
    mailDir,
    browser,
  }) => {
    const admin = await signUpAdmin(page, mailDir, { companyName: 'Phases Co' });
    const check = await launchThroughApi(page, {
      workspaceId: admin.workspaceId,
      title: 'Phase walk',
      minResponses: 2,
    });
    await page.goto(`/admin/health-check/${check.id}/manage`);
    await expect(page.getByRole('heading', { name: 'Phase walk' })).toBeVisible();
    await expect(page.getByTestId('phase-card')).toHaveText('Collection');
    await expect(page.getByRole('list', { name: 'Phases' })).toContainText('CollectionVotingSummary');
    await expectAccessible(page);

    // Below the minimum: the server refuses with 409 and the message is shown.
    await page.getByRole('button', { name: 'Start Voting Phase' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm Action' });
    await expect(confirm).toContainText('Are you sure you want to proceed? This action cannot be undone.');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    await page.getByRole('button', { name: 'Start Voting Phase' }).click();
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByText('At least 2 completed responses are needed before voting')).toBeVisible();
    await expect(page.getByTestId('phase-card')).toHaveText('Collection');

    // The Settings tab is editable during collection: lower the minimum to one response.
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByLabel('Minimum responses').fill('0');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expect(page.getByText('Minimum responses must be a number from 1 to 50')).toBeVisible();
    await page.getByLabel('Minimum responses').fill('1');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expect(page.getByText('Settings saved')).toBeVisible();
    await page.getByRole('tab', { name: 'Overview' }).click();

    // A participant completes through the real flow; the manage screen updates live.
    const participant = await browser.newContext();
    await completeParticipation(participant, mailDir, check.id, 'Nia Participant');
    await participant.close();
    await expect(page.getByTestId('participants-card')).toHaveText('1');
    await expect(page.getByTestId('completion-card')).toHaveText('100%');
    await expect(page.getByText('All participants have completed')).toBeVisible();
    await page.getByRole('tab', { name: 'Participants' }).click();
    const row = page.getByRole('row', { name: /Nia Participant/ });
    await expect(row).toContainText('Completed');
    await expect(row).toContainText('100%');

    // Someone has joined: the protective settings only get stricter, and the tab says so.
    await page.getByRole('tab', { name: 'Settings' }).click();
    await expect(page.getByTestId('stricter-only')).toContainText('the minimum responses can only rise');
    await expect(page.getByRole('switch', { name: 'Anonymous responses' })).toBeDisabled();
    await expect(page.getByLabel('Minimum responses')).toHaveAttribute('min', '1');
    await expectAccessible(page);
    await page.getByRole('tab', { name: 'Overview' }).click();

    await page.getByRole('button', { name: 'Start Voting Phase' }).click();
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByText('Successfully moved to vote phase')).toBeVisible();
    await expect(page.getByTestId('phase-card')).toHaveText('Voting');
    await page.getByRole('tab', { name: 'Settings' }).click();
    await expect(page.getByText('Settings can only be changed during the collection phase')).toBeVisible();

    await page.getByRole('button', { name: 'Complete Health Check' }).click();
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/health-checks/${check.id}/results$`));
  });

  test('strangers get the error screen for a check of another organisation', async ({
    page,
    mailDir,
    browser,
  }) => {
    const owner = await signUpAdmin(page, mailDir, { companyName: 'Owner Co' });
    const check = await launchThroughApi(page, { workspaceId: owner.workspaceId, title: 'Owner secret' });
    const other = await browser.newContext();
    const strangerPage = await other.newPage();
    await signUpAdmin(strangerPage, mailDir, { companyName: 'Stranger Co' });
    await strangerPage.goto(`/admin/health-check/${check.id}/manage`);
    await expect(strangerPage.getByRole('heading', { name: 'Error Loading Health Check' })).toBeVisible();
    await expect(strangerPage.getByText('Owner secret')).toHaveCount(0);
    await expect(strangerPage.getByRole('link', { name: 'Return to Dashboard' })).toBeVisible();
    await other.close();
  });
});
