// scim: `GET /scim/v2/Users?filter=userName eq "…"` (and by externalId) over 10,000 provisioned people, in one
// process, one call at a time (median of 200), on the embedded database and, with BENCH_DATABASE_URL, on
// PostgreSQL. An identity provider sends this lookup before every create, so it must be one index probe: the
// target is < 50 ms, and the worker's plan of the lookup must use the index (issue 37).
import { withScratchDatabase } from './autosave.mjs';
import { result, runWorker, skippedWithoutPostgres } from './report.mjs';

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
  const results = figures('embedded', runWorker('scim-worker.ts'));
  const pgUrl = process.env.BENCH_DATABASE_URL;
  if (pgUrl)
    results.push(
      ...(await withScratchDatabase(pgUrl, (url) =>
        figures('PostgreSQL', runWorker('scim-worker.ts', [url])),
      )),
    );
  else results.push(skippedWithoutPostgres('scim (PostgreSQL)'));
  return results;
}
