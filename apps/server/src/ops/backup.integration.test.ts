import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { createAdmin } from '../test/accounts';
import { contextOn, openEmptyDatabase, useTestContext, type TestDatabase } from '../test/harness';
import { LOOP_TABLES, loopResults, loopWithClosedRound } from '../test/loops';
import { addComment, addParticipants, createCheck, rateAll } from '../test/health-checks';
import { fingerprint, inUtc, listTables } from './tables';
import { isEmptyDatabase, OpsError, restoreBackup, writeBackup, type BackupHeader } from './snapshot';
import type { Database } from '../db/client';
import { automaticBackup, backupsDir } from './automatic';

/**
 * Backups (issue 18): a snapshot of a database with people, a check, answers, a photo and pending e-mails
 * restores into an empty database with every table's rows and checksum; a snapshot taken while writes go on is
 * consistent; foreign, truncated, damaged and newer files, and non-empty targets, are refused with the target
 * left as it was.
 */
const ctx = useTestContext();
const folder = await mkdtemp(path.join(tmpdir(), 'pulsecheck-backups-'));
const targets: TestDatabase[] = [];
afterAll(async () => {
  for (const target of targets) await target.drop();
  await rm(folder, { recursive: true, force: true });
});

const emptyTarget = async () => {
  const target = await openEmptyDatabase();
  targets.push(target);
  return target;
};

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** Every table's fingerprint, by name. */
async function fingerprints(database: Database) {
  return database.db.transaction(async (tx) => {
    await inUtc(tx);
    const all: Record<string, { rows: number; checksum: string }> = {};
    for (const table of await listTables(tx)) all[table.name] = await fingerprint(tx, table);
    return all;
  });
}

/** Rewrites a backup file's lines with `edit` and a correct end line, as a file another version could write. */
async function rewrite(file: string, target: string, edit: (lines: string[]) => string[]) {
  const lines = gunzipSync(await readFile(file))
    .toString('utf8')
    .trimEnd()
    .split('\n')
    .slice(0, -1);
  const body = edit(lines)
    .map((line) => `${line}\n`)
    .join('');
  const end = JSON.stringify({ end: true, sha256: createHash('sha256').update(body).digest('hex') });
  await writeFile(target, gzipSync(`${body}${end}\n`));
}

let sample = '';
let sampleLoop: Awaited<ReturnType<typeof loopWithClosedRound>> | undefined;
const sampleBackup = async () => {
  if (sample) return sample;
  const admin = await createAdmin(ctx);
  const form = new FormData();
  form.append('photo', new File([PNG], 'photo.png', { type: 'image/png' }));
  const upload = await ctx.app.request('/api/account/avatar', {
    method: 'POST',
    body: form,
    headers: admin.jar.header(),
  });
  expect(upload.status).toBe(200);
  const check = await createCheck(ctx, admin, { phase: 'summarize' });
  const people = await addParticipants(ctx, check, 3, { status: 'completed' });
  const ratings = await rateAll(ctx, check, people, (i) => (i === 0 ? 'fire-warning' : 'healthy'));
  const first = people[0]!;
  await addComment(ctx, {
    participantId: first.participantId,
    ratingId: ratings.get(`${first.participantId}:${check.componentIds[0]}`)!,
    content: 'Ünïcode, "quotes", \\ and a\nnew line',
  });
  sampleLoop = await loopWithClosedRound(ctx, admin);
  sample = path.join(folder, 'sample.pcbackup');
  await writeBackup(ctx.database, sample);
  return sample;
};

describe('npm run backup and npm run restore (in process)', () => {
  it('restores every table into an empty database with the same rows and checksums, photos included', async () => {
    const file = await sampleBackup();
    const target = await emptyTarget();
    const header = await restoreBackup(target, file);
    const source = await fingerprints(ctx.database);
    const restored = await fingerprints(target);
    expect(restored).toEqual(source);
    expect(Object.keys(restored)).toContain('drizzle.__drizzle_migrations');
    expect(header.tables.find((t) => t.table === 'public.avatars')?.rows).toBeGreaterThan(0);
    expect(header.tables.find((t) => t.table === 'public.mail_outbox')?.rows).toBeGreaterThan(0);
    expect(header.tables.map((t) => t.table).sort()).toEqual(Object.keys(source).sort());
    // Loops: every table of them has rows in the file (rounds, personal links, the ledger, answers, counts, jobs).
    for (const table of LOOP_TABLES)
      expect(header.tables.find((t) => t.table === table)?.rows, table).toBeGreaterThan(0);
    // And the loop's results read the same from the restored database.
    const restoredApp = await contextOn(target, { config: ctx.deps.config, close: async () => {} });
    try {
      expect(await loopResults(restoredApp, sampleLoop!)).toEqual(await loopResults(ctx, sampleLoop!));
    } finally {
      await restoredApp.close();
    }
  });

  it('takes a consistent snapshot while writes go on (every table matches the counts and checksums it recorded)', async () => {
    const admin = await createAdmin(ctx);
    const check = await createCheck(ctx, admin);
    await addParticipants(ctx, check, 5);
    // 200 writes, one at a time, while the snapshot is taken.
    let writes = 0;
    const writer = (async () => {
      for (let i = 0; i < 200; i++) {
        await ctx.deps.db.execute(
          sql`update participants set progress = progress + 1 where health_check_id = ${check.healthCheckId}`,
        );
        writes++;
      }
    })();
    const file = path.join(folder, 'busy.pcbackup');
    await Promise.all([writeBackup(ctx.database, file), writer]);
    expect(writes).toBeGreaterThan(0);
    // restoreBackup compares each table with what the snapshot recorded, so a torn read would fail here.
    await restoreBackup(await emptyTarget(), file);
  });

  it('refuses a non-empty database unless told to replace it, and then replaces it', async () => {
    const file = await sampleBackup();
    const target = await emptyTarget();
    await restoreBackup(target, file);
    const before = await fingerprints(target);
    await expect(restoreBackup(target, file)).rejects.toThrow(
      'The target database is not empty; nothing was restored (pass --force to replace it).',
    );
    expect(await fingerprints(target)).toEqual(before);
    await restoreBackup(target, file, { replace: true });
    expect(await fingerprints(target)).toEqual(before);
  });

  it('refuses foreign, truncated, damaged and newer files and leaves the database empty', async () => {
    const file = await sampleBackup();
    const bytes = await readFile(file);
    const cases: [string, Buffer | ((target: string) => Promise<void>), RegExp][] = [
      [
        'plain.pcbackup',
        Buffer.from('just some text\n'),
        /is not a Pulsecheck backup \(it is not a gzip file\)/,
      ],
      ['foreign.pcbackup', gzipSync('{"hello": "world"}\n'), /is not a Pulsecheck backup/],
      ['empty.pcbackup', gzipSync(''), /is empty: it is not a Pulsecheck backup/],
      ['truncated.pcbackup', bytes.subarray(0, Math.floor(bytes.length / 2)), /is incomplete/],
      [
        'without-end.pcbackup',
        gzipSync(gunzipSync(bytes).toString('utf8').trimEnd().split('\n').slice(0, -1).join('\n') + '\n'),
        /is incomplete: it ends before its last line/,
      ],
      [
        'tampered.pcbackup',
        gzipSync(gunzipSync(bytes).toString('utf8').replace('Ünïcode', 'Unicode')),
        /is damaged: its content does not match its checksum/,
      ],
      [
        'newer.pcbackup',
        (target) =>
          rewrite(file, target, ([header = '', ...rest]) => {
            const parsed = JSON.parse(header) as BackupHeader;
            return [
              JSON.stringify({ ...parsed, migrations: [...parsed.migrations, 'f'.repeat(64)] }),
              ...rest,
            ];
          }),
        /was made by a different version of Pulsecheck/,
      ],
      [
        'wrong-rows.pcbackup',
        (target) =>
          rewrite(file, target, (lines) => {
            const at = lines.findIndex((line) => line === '{"table":"public.comments"}');
            return [...lines.slice(0, at + 1), ...lines.slice(at + 2)];
          }),
        /The restored data differs from the backup; nothing was restored:\n {2}public\.comments: 0 rows restored of 1/,
      ],
    ];
    const target = await emptyTarget();
    for (const [name, content, message] of cases) {
      const damaged = path.join(folder, name);
      if (typeof content === 'function') await content(damaged);
      else await writeFile(damaged, content);
      const refusal = await restoreBackup(target, damaged).catch((error: unknown) => error);
      expect(refusal, name).toBeInstanceOf(OpsError);
      expect((refusal as Error).message, name).toMatch(message);
      expect(await isEmptyDatabase(target.db), name).toBe(true);
    }
  });
});

describe('automatic snapshots of the embedded database (decision 0012)', () => {
  it('writes a restorable snapshot into DATA_DIR/backups and keeps the newest N', async () => {
    const dataDir = path.join(folder, 'data');
    const taken = [];
    for (let i = 0; i < 3; i++) taken.push((await automaticBackup(ctx.database, dataDir, 2)).file);
    const kept = (await readdir(backupsDir(dataDir))).sort();
    expect(kept).toEqual(taken.slice(1).map((file) => path.basename(file)));
    expect(kept.every((name) => /^pulsecheck-auto-\d{8}T\d{9}Z\.pcbackup$/.test(name))).toBe(true);
    await restoreBackup(await emptyTarget(), taken[2]!);
  });
});
