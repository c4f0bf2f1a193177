// audit-log: the Audit log's list (`GET /api/organizations/{id}/audit-log`) over 1,000,000 entries of one
// organisation, with each filter the screen offers (none, action, actor, target, a month, a month and an action, an
// older page, a rare combination), in one process, one call at a time (median of 50), on the embedded database and,
// with BENCH_DATABASE_URL, on PostgreSQL. Target < 100 ms each (issue 37).
import { withScratchDatabase } from './autosave.mjs';
import { result, runWorker, skippedWithoutPostgres } from './report.mjs';

const figures = (kind, measured) =>
  Object.entries(measured.ms).map(([filter, ms]) =>
    result({
      name: `audit log ${filter} (${kind})`,
      metric: `GET …/audit-log filtered by ${filter} over ${measured.entries} entries (median)`,
      unit: 'ms',
      value: ms,
      target: { max: 100 },
    }),
  );

export async function benchAuditLog() {
  const results = figures('embedded', runWorker('audit-worker.ts'));
  const pgUrl = process.env.BENCH_DATABASE_URL;
  if (pgUrl)
    results.push(
      ...(await withScratchDatabase(pgUrl, (url) =>
        figures('PostgreSQL', runWorker('audit-worker.ts', [url])),
      )),
    );
  else results.push(skippedWithoutPostgres('audit log (PostgreSQL)'));
  return results;
}
