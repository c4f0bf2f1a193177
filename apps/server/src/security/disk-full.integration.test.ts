import { execFile } from 'node:child_process';
import { readdir, mkdir, mkdtemp, rm, statfs, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { SYSTEM_MESSAGES } from '@pulsecheck/shared/system/contract';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadTestSettings } from '../config';
import { openPglite, queryRows } from '../db/client';
import { automaticBackup, backupsDir } from '../ops/automatic';
import { pgliteTemplate, testConfig, useTestContext } from '../test/harness';
import {
  autosaveCounter,
  checkWithParticipants,
  httpRequest,
  serverBundleMissing,
  startServer,
  type ServerProcess,
} from '../test/server-process';
import { english } from '../test/requests';

/**
 * Issue 31, item 2 (docs/operations.md, "What happens when…"): the built server on the embedded database, with
 * DATA_DIR on a small tmpfs that the test fills. Writes answer 507 storage_full naming the cause, reads go on,
 * readiness says 503, the server logs it once; once space is freed writes work again without a restart, and
 * nothing stored is lost. Automatic snapshots that cannot be written leave the previous ones as they were.
 * Needs root (mount); skipped loudly without it, an error on CI.
 */
const run = promisify(execFile);
const kind = loadTestSettings().kind;
const SECRET = testConfig().authSecret;

/** Mounts a tmpfs of `megabytes` at a new folder; undefined (and why) when this machine does not let us. */
async function mountTmpfs(megabytes: number): Promise<{ dir: string; unmount(): Promise<void> } | string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pulsecheck-tmpfs-'));
  try {
    await run('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m,mode=0700`, 'tmpfs', dir]);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    return `cannot mount a tmpfs (${String(error).split('\n')[0]}); run as root`;
  }
  return {
    dir,
    async unmount() {
      await run('umount', ['-l', dir]).catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Fills the file system of `dir` until `leaveBytes` are free (one file); answers its path. */
async function fill(dir: string, leaveBytes: number) {
  const space = await statfs(dir);
  const file = path.join(dir, 'filler');
  await run('fallocate', ['-l', String(Math.max(1, space.bavail * space.bsize - leaveBytes)), file]);
  return file;
}

const missing = kind !== 'pglite' || serverBundleMissing('the disk-full test');
const mounted = missing ? undefined : await mountTmpfs(160);
if (typeof mounted === 'string') {
  if (loadTestSettings().ci) throw new Error(`the disk-full test: ${mounted}`);
  console.warn(`\n!!! the disk-full test SKIPPED: ${mounted}.\n`);
}
const tmpfs = typeof mounted === 'object' ? mounted : undefined;

describe.skipIf(!tmpfs)('a full disk under the embedded database (tmpfs)', () => {
  const ctx = useTestContext();
  let server: ServerProcess | undefined;
  const fillers: string[] = [];
  afterEach(async () => {
    for (const filler of fillers.splice(0)) await rm(filler, { force: true });
  });
  afterAll(async () => {
    if (server && !server.exited()) await server.kill();
    await tmpfs?.unmount();
  });

  it('refuses writes with 507 and says so once, reads go on, and writes work again once space is freed', async () => {
    const dataDir = path.join(tmpfs?.dir ?? '', 'data');
    const folder = path.join(dataDir, 'pglite');
    await mkdir(dataDir, { recursive: true });
    await (await PGlite.create(folder, { loadDataDir: await pgliteTemplate() })).close();
    const open = async () => openPglite(await PGlite.create(folder));
    const setup = await checkWithParticipants(
      { kind: 'pglite', dataDir, databaseUrl: undefined, open, drop: () => Promise.resolve() },
      { count: 1, secret: SECRET },
    );
    const { cookie } = setup.participants[0] ?? { cookie: '' };
    server = await startServer({
      dataDir,
      authSecret: SECRET,
      env: { LOG_LEVEL: 'warn', BACKUP_INTERVAL_HOURS: '0' },
    });
    const url = server.url;
    let counter = 0;
    const save = () =>
      httpRequest(`${url}/api/health-checks/${setup.check.healthCheckId}/responses`, {
        method: 'PUT',
        headers: { cookie },
        body: {
          votes: { [setup.componentId]: 'healthy' },
          comments: { [setup.componentId]: `autosave ${++counter}` },
          last_component_index: 0,
        },
      });
    const read = () =>
      httpRequest(`${url}/api/health-checks/${setup.check.healthCheckId}/participation`, {
        headers: { cookie },
      });

    expect((await save()).status).toBe(200);
    // The last save answered 200 (saves go one at a time, so `counter` is the one just answered).
    let acknowledged = counter;

    // Well under the reserve the database needs to go on writing its log.
    const filler = await fill(dataDir, 8 * 1024 * 1024);
    fillers.push(filler);
    const fullAt = Date.now();
    let refused;
    do {
      refused = await save();
      if (refused.status === 200) acknowledged = counter;
    } while (refused.status === 200 && Date.now() - fullAt < 5_000);
    expect(refused.status, refused.body).toBe(507);
    const noticedMs = Date.now() - fullAt;
    expect(JSON.parse(refused.body)).toEqual({
      error: { code: 'storage_full', message: english(SYSTEM_MESSAGES.storageFull) },
    });
    for (let i = 0; i < 20; i++) expect((await save()).status).toBe(507);
    const reading = await read();
    expect(reading.status).toBe(200);
    expect(
      autosaveCounter(
        (JSON.parse(reading.body) as { participant: { responses: { comments: Record<string, string> } } })
          .participant.responses.comments[setup.componentId],
      ),
    ).toBe(acknowledged);
    const ready = await httpRequest(`${url}/api/ready`);
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.body)).toMatchObject({ error: { code: 'storage_full' } });
    expect((await httpRequest(`${url}/api/health`)).status).toBe(200);

    await rm(filler);
    const freedAt = Date.now();
    let saved;
    do saved = await save();
    while (saved.status !== 200 && Date.now() - freedAt < 5_000);
    expect(saved.status, saved.body).toBe(200);
    const resumedMs = Date.now() - freedAt;
    expect((await httpRequest(`${url}/api/ready`)).status).toBe(200);
    console.info(
      `disk full (embedded): writes refused ${noticedMs} ms after the disk filled, accepted again ${resumedMs} ms after space was freed`,
    );

    const output = server.output();
    expect(output.match(/the disk is full; writes are refused/g) ?? [], output).toHaveLength(1);
    expect(output.match(/disk space available again/g) ?? [], output).toHaveLength(1);
    expect(await server.stop()).toBe(0);

    // Nothing stored was lost or damaged: the database opens and holds the last write.
    const reopened = await open();
    try {
      const [row] = await queryRows<{ comment: string }>(
        reopened.db,
        sql`select responses->'comments'->>${setup.componentId} as comment from participants
            where id = ${setup.participants[0]?.participantId ?? ''}`,
      );
      expect(autosaveCounter(row?.comment)).toBe(counter);
    } finally {
      await reopened.close();
    }
  }, 90_000);

  it('keeps the previous automatic snapshots when a new one cannot be written, and leaves no partial file', async () => {
    const dataDir = path.join(tmpfs?.dir ?? '', 'snapshots');
    await mkdir(backupsDir(dataDir), { recursive: true });
    const previous = [
      'pulsecheck-auto-20260101T000000000Z.pcbackup',
      'pulsecheck-auto-20260102T000000000Z.pcbackup',
    ];
    for (const name of previous) await writeFile(path.join(backupsDir(dataDir), name), 'an older snapshot');
    fillers.push(await fill(dataDir, 0));
    await expect(automaticBackup(ctx.database, dataDir, 1)).rejects.toMatchObject({ code: 'ENOSPC' });
    expect((await readdir(backupsDir(dataDir))).sort()).toEqual(previous);
  });
});
