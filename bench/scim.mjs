// scim: `GET /scim/v2/Users?filter=userName eq "…"` (and by externalId) over 10,000 provisioned people, in one
// process, one call at a time (median of 200), on the embedded database and, with BENCH_DATABASE_URL, on
// PostgreSQL. An identity provider sends this lookup before every create, so it must be one index probe: the
// target is < 50 ms, and the worker's plan of the lookup must use the index (issue 37).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { withScratchDatabase } from './autosave.mjs';
import { result } from './report.mjs';

function runWorker(databaseUrl = '') {
  const run = spawnSync('npx', ['tsx', path.join(import.meta.dirname, 'scim-worker.ts'), databaseUrl], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = run.stdout.trim().split('\n').at(-1) ?? '';
  if (run.status !== 0 || !line.startsWith('{')) throw new Error(`scim worker failed:\n${run.stdout}`);
  return JSON.parse(line);
}

function figures(kind, measured) {
  return [
    result({
      name: `scim userName filter (${kind})`,
      metric: `GET /scim/v2/Users?filter=userName eq over ${measured.users} people (median)`,
      unit: 'ms',
      value: measured.userNameMs,
      target: { max: 50 },
    }),
    result({
      name: `scim externalId filter (${kind})`,
      metric: `GET /scim/v2/Users?filter=externalId eq over ${measured.users} people (median)`,
      unit: 'ms',
      value: measured.externalIdMs,
      target: { max: 50 },
    }),
    result({
      name: `scim userName filter uses the index (${kind})`,
      metric: measured.plan,
      value: measured.usesIndex ? 1 : 0,
      target: { min: 1 },
    }),
  ];
}

export async function benchScim() {
  const results = figures('embedded', runWorker());
  const pgUrl = process.env.BENCH_DATABASE_URL;
  if (pgUrl)
    results.push(...(await withScratchDatabase(pgUrl, (url) => figures('PostgreSQL', runWorker(url)))));
  else
    results.push(
      result({
        name: 'scim (PostgreSQL)',
        metric: 'skipped: BENCH_DATABASE_URL not set',
        value: 0,
        target: { min: 1 },
      }),
    );
  return results;
}
