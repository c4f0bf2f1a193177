// api-token: the same API read with an API token and with the browser session, timed in one process, one call at a
// time, interleaved (median of 300 each), on the embedded database and, with BENCH_DATABASE_URL, on PostgreSQL. A
// token request finds its token by hash (instead of the session), counts against its rate limit (one UPDATE of
// its rate_limit row, shared by the calls that arrive together) and checks its scope; the target says that costs
// at most 1.2× the session's read.
import { withScratchDatabase } from './autosave.mjs';
import { result, runWorker, skippedWithoutPostgres } from './report.mjs';

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
  const results = figures('embedded', runWorker('api-token-worker.ts'));
  const pgUrl = process.env.BENCH_DATABASE_URL;
  if (pgUrl)
    results.push(
      ...(await withScratchDatabase(pgUrl, (url) =>
        figures('PostgreSQL', runWorker('api-token-worker.ts', [url])),
      )),
    );
  else results.push(skippedWithoutPostgres('api-token (PostgreSQL)'));
  return results;
}
