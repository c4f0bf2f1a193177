// api-token: the same API read with an API token and with the browser session, timed in one process, one call at a
// time, interleaved (median of 300 each), on the embedded database and, with BENCH_DATABASE_URL, on PostgreSQL. A
// token request finds its token by hash (instead of the session), counts against its rate limit (one UPDATE of
// its rate_limit row, shared by the calls that arrive together) and checks its scope; the target says that costs
// at most 1.2× the session's read.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { withScratchDatabase } from './autosave.mjs';
import { result } from './report.mjs';

function runWorker(databaseUrl = '') {
  const run = spawnSync('npx', ['tsx', path.join(import.meta.dirname, 'api-token-worker.ts'), databaseUrl], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = run.stdout.trim().split('\n').at(-1) ?? '';
  if (run.status !== 0 || !line.startsWith('{')) throw new Error(`api-token worker failed:\n${run.stdout}`);
  return JSON.parse(line);
}

function figures(kind, measured) {
  return Object.entries(measured).map(([label, { sessionMs, tokenMs }]) =>
    result({
      name: `api-token ${label} (${kind})`,
      metric: 'read with a token vs the same read with a session (median)',
      unit: 'ms',
      value: tokenMs,
      baseline: sessionMs,
      target: { maxRatio: 1.2 },
    }),
  );
}

export async function benchApiTokens() {
  const results = figures('embedded', runWorker());
  const pgUrl = process.env.BENCH_DATABASE_URL;
  if (pgUrl)
    results.push(...(await withScratchDatabase(pgUrl, (url) => figures('PostgreSQL', runWorker(url)))));
  else
    results.push(
      result({
        name: 'api-token (PostgreSQL)',
        metric: 'skipped: BENCH_DATABASE_URL not set',
        value: 0,
        target: { min: 1 },
      }),
    );
  return results;
}
