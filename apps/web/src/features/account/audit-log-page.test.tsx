import { AUDIT_MESSAGES, type AuditEntry } from '@pulsecheck/shared/audit/log';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { oneWorkspace } from '@/test/fixtures';
import { renderRoutes, stubFetch } from '@/test/render';
import { AuditLogPage } from './audit-log-page';
import { say, t } from '@/lib/i18n';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const entry = (seq: number, overrides: Partial<AuditEntry> = {}): AuditEntry => ({
  seq,
  at: '2026-11-28T10:00:00.000Z',
  actorKind: 'user',
  actorId: 'u-1',
  actorLabel: 'ada@example.com',
  ip: '203.0.113.7',
  action: 'workspace.created',
  targetType: 'workspace',
  targetId: 'w-2',
  targetLabel: 'Mobile',
  changes: null,
  hash: 'h',
  ...overrides,
});

const PATH = '/admin/account-settings/audit-log';
const LIST = '/api/organizations/o/audit-log';

const show = (options: { at?: string; role?: 'owner' | 'admin' | null } = {}) => {
  const workspaces = oneWorkspace('w-1', 'Platform');
  workspaces.workspaces[0]!.organizationRole = options.role === undefined ? 'owner' : options.role;
  return renderRoutes([{ path: PATH, element: <AuditLogPage /> }], {
    at: options.at ?? PATH,
    seed: [[['workspaces'], workspaces]],
  });
};

/** The list's requests: their query parameters, in order. */
const listQueries = (fetch: ReturnType<typeof stubFetch>) =>
  fetch.mock.calls
    .map(([url]) => (url instanceof Request ? url.url : url.toString()))
    .filter((url) => url.startsWith(LIST) && !url.includes('/export') && !url.includes('/verify'))
    .map((url) => Object.fromEntries(new URL(url, 'http://x').searchParams));

describe('Account Settings → Audit log', () => {
  it('lists the entries newest first in words, and shows older ones on request', async () => {
    const user = userEvent.setup();
    const fetch = stubFetch((url) =>
      url.includes('before=2')
        ? json({ entries: [entry(1)], next: null, retentionDays: 365 })
        : json({
            entries: [
              entry(3, {
                action: 'workspace.renamed',
                targetLabel: 'Platform Core',
                changes: { name: { before: 'Platform', after: 'Platform Core' } },
              }),
              entry(2, {
                actorKind: 'api-token',
                actorLabel: 'CI',
                ip: null,
                action: 'audit-log.exported',
                targetLabel: 'Rocket Teams',
                changes: { format: 'csv', filter: { action: 'workspace.renamed' } },
              }),
            ],
            next: 2,
            retentionDays: 365,
          }),
    );
    show();
    expect(await screen.findByRole('link', { name: say(AUDIT_MESSAGES.title) })).toHaveAttribute(
      'aria-current',
      'page',
    );
    const table = await screen.findByRole('table');
    expect(screen.getByRole('region', { name: say(AUDIT_MESSAGES.entries) })).toHaveAttribute(
      'tabindex',
      '0',
    );
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Time', 'Actor', 'Action', 'Target', 'IP address', 'What changed']);
    const rows = screen.getAllByTestId('audit-entry');
    expect(rows.map((row) => within(row).getAllByRole('cell')[2]!.textContent)).toEqual([
      'Workspace renamed',
      'Audit log exported',
    ]);
    expect(rows[0]).toHaveTextContent('Name: Platform → Platform Core');
    expect(rows[0]).toHaveTextContent('203.0.113.7');
    expect(rows[1]).toHaveTextContent('API token “CI”');
    expect(rows[1]).toHaveTextContent('Filter: Action Workspace renamed');
    expect(rows[1]).not.toHaveTextContent('{');

    await user.click(screen.getByRole('button', { name: say(AUDIT_MESSAGES.loadMore) }));
    expect(await screen.findAllByTestId('audit-entry')).toHaveLength(3);
    expect(screen.queryByRole('button', { name: say(AUDIT_MESSAGES.loadMore) })).not.toBeInTheDocument();
    expect(listQueries(fetch)).toEqual([{}, { before: '2' }]);
  });

  it('says when nothing is recorded yet (a filtered empty list says no entries match, above)', async () => {
    stubFetch(() => json({ entries: [], next: null, retentionDays: 365 }));
    show();
    expect(await screen.findByText(say(AUDIT_MESSAGES.emptyAll))).toBeVisible();
  });

  it('keeps the filters in the URL, asks the server with them, carries them to the exports and clears them', async () => {
    const user = userEvent.setup();
    const fetch = stubFetch(() => json({ entries: [], next: null, retentionDays: 365 }));
    const { router } = show();
    expect(await screen.findByText(say(AUDIT_MESSAGES.emptyAll))).toBeVisible();
    await user.type(screen.getByLabelText(say(AUDIT_MESSAGES.actor)), 'ada@example.com');
    await user.selectOptions(screen.getByLabelText(say(AUDIT_MESSAGES.action)), 'Workspace renamed');
    await user.type(screen.getByLabelText(say(AUDIT_MESSAGES.from)), '2026-11-01');
    await user.type(screen.getByLabelText(say(AUDIT_MESSAGES.to)), '2026-11-28');
    await user.click(screen.getByRole('button', { name: say(AUDIT_MESSAGES.apply) }));
    expect(await screen.findByText(say(AUDIT_MESSAGES.empty))).toBeVisible();
    const filter = {
      actor: 'ada@example.com',
      action: 'workspace.renamed',
      from: '2026-11-01',
      to: '2026-11-28',
    };
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual(filter);
    expect(listQueries(fetch).at(-1)).toEqual(filter);
    for (const [name, format] of [
      [say(AUDIT_MESSAGES.exportCsv), 'csv'],
      [say(AUDIT_MESSAGES.exportJsonl), 'jsonl'],
    ] as const) {
      const href = screen.getByRole('link', { name }).getAttribute('href')!;
      const url = new URL(href, 'http://x');
      expect(url.pathname).toBe(`${LIST}/export`);
      expect(Object.fromEntries(url.searchParams)).toEqual({ ...filter, format });
    }

    await user.click(screen.getByRole('button', { name: say(AUDIT_MESSAGES.clear) }));
    expect(await screen.findByText(say(AUDIT_MESSAGES.emptyAll))).toBeVisible();
    expect(router.state.location.search).toBe('');
    expect(screen.getByLabelText(say(AUDIT_MESSAGES.actor))).toHaveValue('');
    expect(screen.getByLabelText(say(AUDIT_MESSAGES.action))).toHaveValue('');
  });

  it('opens a shared filtered view from its URL and names a filter the server refuses at its field', async () => {
    const fetch = stubFetch((url) =>
      url.includes('from=2026-02-31x')
        ? json(
            {
              error: {
                code: 'invalid',
                message: 'Check the highlighted fields',
                fields: { from: say(AUDIT_MESSAGES.dateInvalid) },
              },
            },
            400,
          )
        : json({ entries: [], next: null, retentionDays: 365 }),
    );
    show({ at: `${PATH}?action=workspace.created&from=2026-02-31x` });
    expect(await screen.findByText(say(AUDIT_MESSAGES.dateInvalid))).toBeVisible();
    expect(screen.getByLabelText(say(AUDIT_MESSAGES.from))).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText(say(AUDIT_MESSAGES.action))).toHaveValue('workspace.created');
    expect(listQueries(fetch)[0]).toEqual({ action: 'workspace.created', from: '2026-02-31x' });
  });

  it('says whether the chain is intact, and names the first altered entry', async () => {
    const user = userEvent.setup();
    let verified = { ok: true, checked: 12, brokenSeq: null as number | null };
    const fetch = stubFetch((url) =>
      url.endsWith('/verify')
        ? json(verified)
        : json({ entries: [entry(1)], next: null, retentionDays: 365 }),
    );
    show();
    await user.click(await screen.findByRole('button', { name: say(AUDIT_MESSAGES.verify) }));
    expect(await screen.findByText(t(AUDIT_MESSAGES.verified, { count: 12 }))).toHaveAttribute(
      'role',
      'status',
    );
    expect(fetch).toHaveBeenCalledWith(`${LIST}/verify`, expect.objectContaining({ method: 'POST' }));

    verified = { ok: false, checked: 4, brokenSeq: 5 };
    await user.click(screen.getByRole('button', { name: say(AUDIT_MESSAGES.verify) }));
    expect(await screen.findByRole('alert')).toHaveTextContent(t(AUDIT_MESSAGES.broken, { seq: 5 }));
    expect(screen.queryByText(t(AUDIT_MESSAGES.verified, { count: 12 }))).not.toBeInTheDocument();
  });

  it('keeps entries for a number of days in range, and says so when saved', async () => {
    const user = userEvent.setup();
    const fetch = stubFetch((url, init) =>
      init?.method === 'PUT'
        ? json({ retentionDays: 90 })
        : json({ entries: [entry(1)], next: null, retentionDays: 365 }),
    );
    show();
    const days = await screen.findByLabelText(/^Keep entries for/);
    expect(days).toHaveValue(365);
    await user.clear(days);
    await user.type(days, '10');
    await user.click(screen.getByRole('button', { name: say(AUDIT_MESSAGES.save) }));
    expect(await screen.findByText(say(AUDIT_MESSAGES.retentionInvalid))).toBeVisible();
    expect(days).toHaveAttribute('aria-invalid', 'true');
    expect(fetch).not.toHaveBeenCalledWith(`${LIST}/retention`, expect.anything());

    await user.clear(days);
    await user.type(days, '90');
    await user.click(screen.getByRole('button', { name: say(AUDIT_MESSAGES.save) }));
    expect(await screen.findByText(say(AUDIT_MESSAGES.saved))).toBeVisible();
    expect(fetch).toHaveBeenCalledWith(
      `${LIST}/retention`,
      expect.objectContaining({ method: 'PUT', body: JSON.stringify({ retentionDays: 90 }) }),
    );
  });

  it('shows no tab to someone who is not the organisation’s owner or admin, and tells them on the URL', async () => {
    const fetch = stubFetch(() => json({ entries: [], next: null, retentionDays: 365 }));
    show({ role: null });
    expect(await screen.findByText(say(AUDIT_MESSAGES.notForYou))).toBeVisible();
    expect(screen.queryByRole('link', { name: say(AUDIT_MESSAGES.title) })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Organisation' })).toBeVisible();
    expect(listQueries(fetch)).toEqual([]);
  });
});
