import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { NOT_FOUND_MESSAGES } from '@pulsecheck/shared/api/errors';
import { LANGUAGE_COOKIE } from '@pulsecheck/shared/i18n/languages';
import { AUDIT_MESSAGES, type AuditList, type AuditVerify } from '@pulsecheck/shared/audit/log';
import type { WorkspacesResponse } from '@pulsecheck/shared/workspaces/schemas';
import { queryRows } from '../../db/client';
import { entryHash, GENESIS_HASH } from '../../audit/chain';
import { pruneAuditLog } from '../../audit/retention';
import { addMember, createAdmin, signedInUser, type Admin } from '../../test/accounts';
import { useTestContext } from '../../test/harness';
import { english, type Jar, json } from '../../test/requests';

/**
 * The audit log (issue 37 item 3): reading it with filters and pages, exporting it, the hash chain found broken
 * where a row was changed or removed, retention that keeps the chain verifiable, and who may do any of it.
 */

const ctx = useTestContext();
const DAY = 24 * 3600_000;

type Org = { owner: Admin; organizationId: string };

async function newOrganization(): Promise<Org> {
  const owner = await createAdmin(ctx);
  const list = await json<WorkspacesResponse>(await ctx.call(owner.jar, 'GET', '/api/workspaces'));
  return { owner, organizationId: list.workspaces[0]!.organizationId };
}

const rename = async (org: Org, name: string) =>
  expect(
    (await ctx.call(org.owner.jar, 'PATCH', `/api/workspaces/${org.owner.workspaceId}`, { name })).status,
  ).toBe(200);

const list = async (jar: Jar, org: Org, query = '') =>
  json<AuditList>(await ctx.call(jar, 'GET', `/api/organizations/${org.organizationId}/audit-log${query}`));

const verify = async (org: Org) =>
  json<AuditVerify>(
    await ctx.call(org.owner.jar, 'POST', `/api/organizations/${org.organizationId}/audit-log/verify`),
  );

describe('audit log', () => {
  it('records a change in its own transaction with who, when, from where and what changed, newest first', async () => {
    const org = await newOrganization();
    await rename(org, 'Platform');
    await rename(org, 'Platform Team');
    const { entries, next, retentionDays } = await list(org.owner.jar, org);
    expect(retentionDays).toBe(365);
    expect(next).toBeNull();
    const renamed = entries.filter((entry) => entry.action === 'workspace.renamed');
    expect(renamed.map((entry) => entry.changes)).toEqual([
      { name: { before: 'Platform', after: 'Platform Team' } },
      {
        name: {
          before: renamed[1]!.changes!.name && (renamed[1]!.changes!.name as { before: string }).before,
          after: 'Platform',
        },
      },
    ]);
    expect(renamed[0]).toMatchObject({
      actorKind: 'user',
      actorId: org.owner.userId,
      actorLabel: org.owner.email,
      targetType: 'workspace',
      targetId: org.owner.workspaceId,
      targetLabel: 'Platform Team',
    });
    expect(renamed[0]!.ip).toBeTruthy();
    expect(renamed[0]!.seq).toBeGreaterThan(renamed[1]!.seq);
    expect(Date.parse(renamed[0]!.at)).toBeGreaterThanOrEqual(Date.parse(renamed[1]!.at));
    // A refused change records nothing.
    const refused = await ctx.call(org.owner.jar, 'PATCH', `/api/workspaces/${org.owner.workspaceId}`, {
      name: '',
    });
    expect(refused.status).toBe(400);
    expect((await list(org.owner.jar, org)).entries).toHaveLength(entries.length);
  });

  it('filters by action, actor, target and date range, and pages with `before`', async () => {
    const org = await newOrganization();
    for (let i = 1; i <= 55; i += 1) await rename(org, `Team ${i}`);
    const created = await ctx.call(org.owner.jar, 'POST', '/api/workspaces', { name: 'Second' });
    expect(created.status).toBe(201);

    const first = await list(org.owner.jar, org, '?action=workspace.renamed');
    expect(first.entries).toHaveLength(50);
    expect(first.entries.every((entry) => entry.action === 'workspace.renamed')).toBe(true);
    const second = await list(org.owner.jar, org, `?action=workspace.renamed&before=${first.next}`);
    expect(second.entries).toHaveLength(5);
    expect(second.next).toBeNull();
    expect(second.entries[0]!.seq).toBeLessThan(first.entries[49]!.seq);

    expect((await list(org.owner.jar, org, '?target=team%2017')).entries.map((e) => e.targetLabel)).toEqual([
      'Team 17',
    ]);
    expect(
      (await list(org.owner.jar, org, `?actor=${encodeURIComponent(org.owner.email.toUpperCase())}`)).entries
        .length,
    ).toBe(50);
    expect((await list(org.owner.jar, org, '?actor=nobody%40example.com')).entries).toEqual([]);
    const created1 = await list(org.owner.jar, org, '?action=workspace.created');
    expect(created1.entries.map((entry) => entry.targetLabel)).toEqual(['Second']);

    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - DAY).toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + DAY).toISOString().slice(0, 10);
    expect(
      (await list(org.owner.jar, org, `?from=${today}&to=${today}&action=workspace.created`)).entries,
    ).toHaveLength(1);
    expect((await list(org.owner.jar, org, `?to=${yesterday}`)).entries).toEqual([]);
    expect((await list(org.owner.jar, org, `?from=${tomorrow}`)).entries).toEqual([]);
    const bad = await ctx.call(
      org.owner.jar,
      'GET',
      `/api/organizations/${org.organizationId}/audit-log?from=31-12-2026`,
    );
    expect(bad.status).toBe(400);
    expect((await json(bad)).error.message).toBe('Enter a date as YYYY-MM-DD');
  });

  it('verifies the chain and names the first entry that was changed, removed, or cut from the end', async () => {
    const org = await newOrganization();
    for (let i = 1; i <= 6; i += 1) await rename(org, `Name ${i}`);
    const intact = await verify(org);
    expect(intact).toMatchObject({ ok: true, brokenSeq: null });
    expect(intact.checked).toBeGreaterThanOrEqual(6);
    const seqs = (await list(org.owner.jar, org, '?action=workspace.renamed')).entries
      .map((e) => e.seq)
      .reverse();

    // Someone with database access softens what a row says.
    await ctx.deps.db.execute(
      sql`update audit_entries set target_label = 'Innocent' where organization_id = ${org.organizationId} and seq = ${seqs[2]!}`,
    );
    expect(await verify(org)).toMatchObject({ ok: false, brokenSeq: seqs[2] });
    // … and re-computes its hash too: the next entry's link no longer matches.
    const [row] = await queryRows<{ hash: string }>(
      ctx.deps.db,
      sql`select hash from audit_entries where organization_id = ${org.organizationId} and seq = ${seqs[2]!}`,
    );
    await ctx.deps.db.execute(
      sql`update audit_entries set hash = ${'f'.repeat(64)} where organization_id = ${org.organizationId} and seq = ${seqs[2]!}`,
    );
    expect((await verify(org)).brokenSeq).toBe(seqs[2]);
    await ctx.deps.db.execute(
      sql`update audit_entries set hash = ${row!.hash}, target_label = 'Name 3' where organization_id = ${org.organizationId} and seq = ${seqs[2]!}`,
    );
    expect(await verify(org)).toMatchObject({ ok: true });

    // A row removed from the middle, then the newest removed.
    await ctx.deps.db.execute(
      sql`delete from audit_entries where organization_id = ${org.organizationId} and seq = ${seqs[3]!}`,
    );
    expect(await verify(org)).toMatchObject({ ok: false, brokenSeq: seqs[3] });
    const other = await newOrganization();
    await rename(other, 'Kept');
    const last = (await list(other.owner.jar, other)).entries[0]!.seq;
    await ctx.deps.db.execute(
      sql`delete from audit_entries where organization_id = ${other.organizationId} and seq = ${last}`,
    );
    expect(await verify(other)).toMatchObject({ ok: false, brokenSeq: last });
  });

  it('exports the filtered entries as CSV and JSON Lines, and records the export', async () => {
    const org = await newOrganization();
    await rename(org, '=cmd|calc');
    const csv = await ctx.call(
      org.owner.jar,
      'GET',
      `/api/organizations/${org.organizationId}/audit-log/export?format=csv&action=workspace.renamed`,
    );
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('content-disposition')).toMatch(
      /attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines[0]).toBe(
      'Entry,Time (UTC),Actor kind,Actor,IP address,Action,Target kind,Target,What changed,Hash',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain("'=cmd|calc");
    expect(lines[1]).toContain('workspace.renamed');

    const jsonl = await ctx.call(
      org.owner.jar,
      'GET',
      `/api/organizations/${org.organizationId}/audit-log/export?format=jsonl`,
    );
    expect(jsonl.headers.get('content-type')).toContain('application/jsonl');
    const entries = (await jsonl.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { action: string });
    expect(entries.map((entry) => entry.action)).toContain('workspace.renamed');
    // Both exports were recorded (the second export's list holds the first export).
    expect(entries[0]!.action).toBe('audit-log.exported');
    const exported = (await list(org.owner.jar, org, '?action=audit-log.exported')).entries;
    expect(exported.map((entry) => entry.changes?.format)).toEqual(['jsonl', 'csv']);
    expect(await verify(org)).toMatchObject({ ok: true });
  });

  it("writes the CSV header in the downloader's language: their stored choice, else the browser's", async () => {
    const org = await newOrganization();
    const header = async (jar: Jar) => {
      const csv = await ctx.call(
        jar,
        'GET',
        `/api/organizations/${org.organizationId}/audit-log/export?format=csv`,
      );
      expect(csv.status).toBe(200);
      return (await csv.text()).split('\r\n')[0];
    };
    const as = (extra: Record<string, string>): Jar => ({
      header: () => ({ ...org.owner.jar.header(), ...extra }),
    });
    const choose = async (language: string | null) =>
      expect((await ctx.call(org.owner.jar, 'PUT', '/api/account/language', { language })).status).toBe(200);
    // Signing up stored English as the owner's choice: with none, the browser's language counts.
    expect(await header(as({ 'accept-language': 'de' }))).toMatch(/^Entry,Time \(UTC\),/);
    await choose(null);
    expect(await header(as({ 'accept-language': 'de-DE,de;q=0.9' }))).toBe(
      'Eintrag,Zeit (UTC),Ausgeführt von (Art),Ausgeführt von,IP-Adresse,Aktion,Art des Ziels,Ziel,Was sich geändert hat,Hash',
    );
    const cookie = org.owner.jar.header().cookie ?? '';
    expect(await header(as({ cookie: `${cookie}; ${LANGUAGE_COOKIE}=es`, 'accept-language': 'de' }))).toMatch(
      /^Entrada,Hora \(UTC\),/,
    );
    await choose('fr');
    expect(await header(as({ 'accept-language': 'de' }))).toMatch(/^Entrée,Date et heure \(UTC\),/);
  });

  it('keeps entries for the retention set, deleting older ones while the chain stays verifiable', async () => {
    const org = await newOrganization();
    for (let i = 1; i <= 3; i += 1) await rename(org, `Old ${i}`);
    const tooShort = await ctx.call(
      org.owner.jar,
      'PUT',
      `/api/organizations/${org.organizationId}/audit-log/retention`,
      {
        retentionDays: 7,
      },
    );
    expect(tooShort.status).toBe(400);
    expect((await json(tooShort)).error.message).toBe('Enter a number of days from 30 to 3650');
    const saved = await ctx.call(
      org.owner.jar,
      'PUT',
      `/api/organizations/${org.organizationId}/audit-log/retention`,
      {
        retentionDays: 30,
      },
    );
    expect(await json(saved)).toEqual({ retentionDays: 30 });
    const before = await list(org.owner.jar, org);
    expect(before.retentionDays).toBe(30);
    expect(before.entries[0]).toMatchObject({
      action: 'audit-log.retention-changed',
      changes: { retentionDays: { before: 365, after: 30 } },
    });
    // 31 days later, everything so far is older than 30 days.
    await ctx.deps.db.execute(
      sql`update audit_entries set at = at - interval '31 days' where organization_id = ${org.organizationId}`,
    );
    await ctx.deps.db.execute(
      sql`update audit_chains set last_at = last_at - interval '31 days' where organization_id = ${org.organizationId}`,
    );
    // (the times are part of the hash: re-chain what the test moved, as if it had been written then)
    expect((await verify(org)).ok).toBe(false);
    await rechain(org.organizationId);
    expect((await verify(org)).ok).toBe(true);
    await rename(org, 'New');
    expect(await pruneAuditLog(ctx.deps.db)).toBeGreaterThanOrEqual(before.entries.length);
    const after = await list(org.owner.jar, org);
    expect(after.entries.map((entry) => entry.targetLabel)).toEqual(['New']);
    expect(await verify(org)).toEqual({ ok: true, checked: 1, brokenSeq: null });
  });

  it('verifies what any name or URL may hold: a lone surrogate in a name, an organisation id in capitals', async () => {
    const org = await newOrganization();
    // JSON can carry half of a UTF-16 pair; the database keeps U+FFFD for it.
    const token = await ctx.call(org.owner.jar, 'POST', '/api/account/api-tokens', {
      name: 'half \ud800 pair',
      scopes: ['results:read'],
      expiresInDays: 30,
    });
    expect(token.status).toBe(201);
    await rename(org, 'Emoji \udfff end');
    const capitals = org.organizationId.toUpperCase();
    const exported = await ctx.call(
      org.owner.jar,
      'GET',
      `/api/organizations/${capitals}/audit-log/export?format=jsonl`,
    );
    expect(exported.status).toBe(200);
    await exported.text();
    expect(await verify(org)).toMatchObject({ ok: true, brokenSeq: null });
    const upper = await ctx.call(org.owner.jar, 'POST', `/api/organizations/${capitals}/audit-log/verify`);
    expect(await json<AuditVerify>(upper)).toMatchObject({ ok: true });
  });

  it('lets only the owner shorten retention, and limits Verify to 10 calls in 10 minutes per organisation', async () => {
    const org = await newOrganization();
    const admin = await addMember(ctx, org.owner, { admin: true });
    const appointed = await ctx.call(
      org.owner.jar,
      'PUT',
      `/api/workspaces/${org.owner.workspaceId}/members/${admin.memberId}/organization-admin`,
      { organizationAdmin: true },
    );
    expect(appointed.status).toBe(200);
    const retention = (jar: Jar, retentionDays: number) =>
      ctx.call(jar, 'PUT', `/api/organizations/${org.organizationId}/audit-log/retention`, { retentionDays });
    expect((await retention(admin.jar, 400)).status).toBe(200);
    const shorter = await retention(admin.jar, 100);
    expect(shorter.status).toBe(403);
    expect((await json(shorter)).error.message).toBe(english(AUDIT_MESSAGES.retentionOwnerOnly));
    expect((await retention(org.owner.jar, 100)).status).toBe(200);
    expect((await list(org.owner.jar, org)).retentionDays).toBe(100);

    for (let i = 0; i < 10; i += 1) expect((await verify(org)).ok).toBe(true);
    const limited = await ctx.call(
      org.owner.jar,
      'POST',
      `/api/organizations/${org.organizationId}/audit-log/verify`,
    );
    expect(limited.status).toBe(429);
    // A stranger's calls neither learn of the organisation nor spend its allowance.
    const stranger = await newOrganization();
    const refused = await ctx.call(
      stranger.owner.jar,
      'POST',
      `/api/organizations/${org.organizationId}/audit-log/verify`,
    );
    expect(refused.status).toBe(404);
  });

  it('is for the owner and organisation admins only: members, other organisations and API tokens get nothing', async () => {
    const org = await newOrganization();
    const stranger = await newOrganization();
    const member = await signedInUser(ctx, { workspaceId: org.owner.workspaceId, access: 'admin' });
    for (const jar of [member.jar, stranger.owner.jar]) {
      for (const [method, path] of [
        ['GET', 'audit-log'],
        ['GET', 'audit-log/export?format=csv'],
        ['POST', 'audit-log/verify'],
      ] as const) {
        const response = await ctx.call(jar, method, `/api/organizations/${org.organizationId}/${path}`);
        expect(response.status).toBe(404);
        expect((await json(response)).error.message).toBe(english(NOT_FOUND_MESSAGES.organization));
      }
      const retention = await ctx.call(
        jar,
        'PUT',
        `/api/organizations/${org.organizationId}/audit-log/retention`,
        {
          retentionDays: 30,
        },
      );
      expect(retention.status).toBe(404);
    }
    const token = await json<{ secret: string }>(
      await ctx.call(org.owner.jar, 'POST', '/api/organization/api-tokens', {
        name: 'Everything',
        scopes: ['insights:read', 'members:read'],
        expiresInDays: 30,
      }),
    );
    const byToken = await ctx.request('GET', `/api/organizations/${org.organizationId}/audit-log`, {
      headers: { authorization: `Bearer ${token.secret}` },
    });
    expect(byToken.status).toBe(403);
  });
});

/** Re-computes every hash of the organisation's chain (what a test moved in time, as if written then). */
async function rechain(organizationId: string) {
  const rows = await queryRows<Record<string, string | number | Date | null>>(
    ctx.deps.db,
    sql`select * from audit_entries where organization_id = ${organizationId} order by seq`,
  );
  let prev = GENESIS_HASH;
  for (const row of rows) {
    const hash = entryHash(prev, {
      organizationId,
      seq: Number(row.seq),
      at: new Date(row.at as string),
      actorKind: row.actor_kind as string,
      actorId: row.actor_id as string | null,
      actorLabel: row.actor_label as string,
      ip: row.ip as string | null,
      action: row.action as string,
      targetType: row.target_type as string,
      targetId: row.target_id as string | null,
      targetLabel: row.target_label as string | null,
      changes: row.changes as string | null,
    });
    await ctx.deps.db.execute(
      sql`update audit_entries set prev_hash = ${prev}, hash = ${hash} where organization_id = ${organizationId} and seq = ${Number(row.seq)}`,
    );
    prev = hash;
  }
  await ctx.deps.db.execute(
    sql`update audit_chains set last_hash = ${prev} where organization_id = ${organizationId}`,
  );
}
