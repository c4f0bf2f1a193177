import { readFile } from 'node:fs/promises';
import type { Download, Page } from '@playwright/test';
import { AUDIT_CSV_COLUMNS, AUDIT_MESSAGES } from '../packages/shared/src/audit/log';
import { signUpAdmin, uniqueEmail } from './support/accounts';
import { english } from './support/english';
import { expect, expectAccessible, test } from './support/fixtures';
import { waitForMail } from './support/mail-capture';

/**
 * Account Settings → 'Audit log' (issue 37 item 3): the owner's changes are listed in words, filtered by action and
 * by date (the filters in the URL), exported as CSV and JSON Lines with those filters, and Verify says the chain is
 * intact; a workspace admin who is not an organisation admin sees no tab and is told who may. Altering a stored row
 * is not done here (the browser tests' server keeps its embedded database to itself): the API tests
 * (features/audit/audit-log.integration.test.ts) change a row and see Verify name it.
 */

const today = () => new Date().toISOString().slice(0, 10);
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

const rows = (page: Page) => page.getByTestId('audit-entry');
const row = (page: Page, action: string) => rows(page).filter({ hasText: action });

async function downloaded(page: Page, name: string) {
  const [download] = (await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name }).click(),
  ])) as [Download, unknown];
  const file = await download.path();
  return { name: download.suggestedFilename(), text: await readFile(file, 'utf8') };
}

test.describe('Audit log', () => {
  test('the owner reads, filters, exports and verifies the log; a workspace admin is refused', async ({
    page,
    browser,
    mailDir,
  }) => {
    const owner = await signUpAdmin(page, mailDir, { companyName: 'Ledger Labs' });
    const workspaces = (await (await page.request.get('/api/workspaces')).json()) as {
      workspaces: { id: string; name: string }[];
    };
    const before = workspaces.workspaces.find((w) => w.id === owner.workspaceId)!.name;
    const renamed = await page.request.patch(`/api/workspaces/${owner.workspaceId}`, {
      data: { name: 'Platform Core' },
    });
    expect(renamed.status(), await renamed.text()).toBe(200);
    const created = await page.request.post('/api/workspaces', { data: { name: 'Mobile' } });
    expect(created.status(), await created.text()).toBe(201);

    await page.goto('/admin/account-settings');
    await page.getByRole('link', { name: english(AUDIT_MESSAGES.title) }).click();
    await expect(page).toHaveURL(/\/admin\/account-settings\/audit-log$/);
    await expect(page.getByRole('heading', { name: english(AUDIT_MESSAGES.title) })).toBeVisible();
    await expect(row(page, 'Workspace renamed')).toContainText(`Name: ${before} → Platform Core`);
    await expect(row(page, 'Workspace renamed')).toContainText(owner.email);
    await expect(row(page, 'Workspace created')).toContainText('Mobile');
    // Newest first.
    await expect(rows(page).first()).toContainText('Workspace created');
    await expectAccessible(page);

    // Retention: out of range is refused with the shared message, in range is saved and is itself recorded.
    const days = page.getByLabel(english(AUDIT_MESSAGES.retention));
    await expect(days).toHaveValue('365');
    await days.fill('10');
    await page.getByRole('button', { name: english(AUDIT_MESSAGES.save) }).click();
    await expect(page.getByText(english(AUDIT_MESSAGES.retentionInvalid))).toBeVisible();
    await days.fill('400');
    await page.getByRole('button', { name: english(AUDIT_MESSAGES.save) }).click();
    await expect(page.getByRole('status').filter({ hasText: english(AUDIT_MESSAGES.saved) })).toBeVisible();
    await expect(row(page, 'Audit log retention changed')).toContainText('Retention days: 365 → 400');

    // Filter by action: the URL keeps it, a reload shows the same view.
    await page
      .getByLabel(english(AUDIT_MESSAGES.action), { exact: true })
      .selectOption({ label: 'Workspace renamed' });
    await page.getByRole('button', { name: english(AUDIT_MESSAGES.apply) }).click();
    await expect(page).toHaveURL(/\?action=workspace\.renamed$/);
    await expect(rows(page)).toHaveCount(1);
    await page.reload();
    await expect(page.getByLabel(english(AUDIT_MESSAGES.action), { exact: true })).toHaveValue(
      'workspace.renamed',
    );
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page)).toContainText('Workspace renamed');

    // The CSV export carries the filter: its header, then only the renaming.
    const csv = await downloaded(page, english(AUDIT_MESSAGES.exportCsv));
    expect(csv.name).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe(AUDIT_CSV_COLUMNS.map(([, title]) => english(title)).join(','));
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('workspace.renamed');
    expect(lines[1]).toContain('Platform Core');

    // Filter by date: today has everything; from tomorrow on nothing matches.
    await page.getByRole('button', { name: english(AUDIT_MESSAGES.clear) }).click();
    await expect(page).toHaveURL(/\/audit-log$/);
    await page.getByLabel(english(AUDIT_MESSAGES.from), { exact: true }).fill(today());
    await page.getByLabel(english(AUDIT_MESSAGES.to), { exact: true }).fill(today());
    await page.getByRole('button', { name: english(AUDIT_MESSAGES.apply) }).click();
    await expect(page).toHaveURL(new RegExp(`from=${today()}&to=${today()}`));
    await expect(row(page, 'Workspace created')).toBeVisible();
    await expect(row(page, 'Audit log exported')).toContainText('Format: csv');
    await expect(row(page, 'Audit log exported')).toContainText('Action Workspace renamed');

    // The JSON Lines export of today: one entry a line, the screen's entries and the export's own (recorded first).
    const jsonl = await downloaded(page, english(AUDIT_MESSAGES.exportJsonl));
    expect(jsonl.name).toMatch(/\.jsonl$/);
    const entries = jsonl.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { seq: number; action: string; hash: string });
    const shown = await rows(page).count();
    expect(entries).toHaveLength(shown + 1);
    expect(entries[0]!.action).toBe('audit-log.exported');
    expect(entries.map((entry) => entry.action)).toEqual(
      expect.arrayContaining(['workspace.renamed', 'workspace.created', 'audit-log.retention-changed']),
    );
    expect(entries.every((entry) => /^[0-9a-f]{64}$/.test(entry.hash))).toBe(true);
    expect(entries.map((entry) => entry.seq)).toEqual([...entries.map((e) => e.seq)].sort((a, b) => b - a));

    await page.getByLabel(english(AUDIT_MESSAGES.from), { exact: true }).fill(tomorrow());
    await page.getByLabel(english(AUDIT_MESSAGES.to), { exact: true }).fill('');
    await page.getByRole('button', { name: english(AUDIT_MESSAGES.apply) }).click();
    await expect(page.getByText(english(AUDIT_MESSAGES.empty))).toBeVisible();
    await expect(rows(page)).toHaveCount(0);

    // Verify: every entry so far, none altered.
    await page.getByRole('button', { name: english(AUDIT_MESSAGES.clear) }).click();
    await page.getByRole('button', { name: english(AUDIT_MESSAGES.verify) }).click();
    await expect(page.getByRole('status').filter({ hasText: /The chain is intact/ })).toHaveText(
      english(AUDIT_MESSAGES.verified, { count: entries.length }),
    );
    await expectAccessible(page);

    // 360 px: the page does not scroll sideways; the table scrolls in its own region.
    await page.setViewportSize({ width: 360, height: 740 });
    await expect(rows(page).first()).toBeAttached();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const region = page.getByRole('region', { name: english(AUDIT_MESSAGES.entries) });
    expect(await region.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await region.focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => region.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    await expectAccessible(page);

    // A workspace admin who is not an organisation admin: no tab, the refusal on the URL, 404 from the API.
    const email = uniqueEmail('wanda');
    const invited = await page.request.post(`/api/workspaces/${owner.workspaceId}/invitations`, {
      data: { email, role: 'Engineering Manager', admin: true },
    });
    expect(invited.status(), await invited.text()).toBe(201);
    const mail = await waitForMail(mailDir, email, /invited/);
    const token = /\/invite\/([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
    const wanda = await browser.newContext({ baseURL: new URL(page.url()).origin });
    const accepted = await wanda.request.post(`/api/invitations/${token}/accept-signup`, {
      data: { fullName: 'Wanda Admin', password: 'wanda-password-1', confirmPassword: 'wanda-password-1' },
    });
    expect(accepted.status(), await accepted.text()).toBe(200);
    const wandaPage = await wanda.newPage();
    await wandaPage.goto('/admin/account-settings/organisation');
    await expect(wandaPage.getByRole('link', { name: 'Organisation' })).toBeVisible();
    await expect(wandaPage.getByRole('link', { name: english(AUDIT_MESSAGES.title) })).toHaveCount(0);
    await wandaPage.goto('/admin/account-settings/audit-log');
    await expect(wandaPage.getByText(english(AUDIT_MESSAGES.notForYou))).toBeVisible();
    await expect(wandaPage.getByRole('table')).toHaveCount(0);
    await expectAccessible(wandaPage);
    const organizationId = (
      (await (await wanda.request.get('/api/workspaces')).json()) as {
        workspaces: { organizationId: string }[];
      }
    ).workspaces[0]!.organizationId;
    expect((await wanda.request.get(`/api/organizations/${organizationId}/audit-log`)).status()).toBe(404);
    expect(
      (await wanda.request.get(`/api/organizations/${organizationId}/audit-log/export?format=csv`)).status(),
    ).toBe(404);
    await wanda.close();
  });
});
