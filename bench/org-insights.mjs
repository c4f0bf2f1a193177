// org-insights: the organisation heat map endpoint on 500 workspaces × two completed checks × 20 participants
// (580,000 ratings), against the bare SQL aggregate of those ratings and against the one statement it runs, timed in
// the same process (medians of 30 interleaved runs), on the embedded database and PostgreSQL; and the insights page
// at 500 columns in Chromium (longest main-thread task).
import { withScratchDatabase } from './autosave.mjs';
import { result, runWorker, skippedWithoutPostgres } from './report.mjs';

function figures(kind, run) {
  const name = `org-insights (${kind}, ${run.workspaces} workspaces, ${run.ratings.toLocaleString('en')} ratings)`;
  console.log(`  ${kind}: first call (sums every completed check once) ${Math.round(run.firstCallMs)} ms`);
  const out = [
    result({
      name,
      metric: 'heat map endpoint (median)',
      unit: 'ms',
      value: run.endpointMs,
      target: { max: 150 },
    }),
    result({
      name,
      metric: 'endpoint vs the bare SQL aggregate of the ratings',
      unit: 'ms',
      value: run.endpointMs,
      baseline: run.ratingsAggregateMs,
      target: { maxRatio: 2 },
    }),
    // What the endpoint adds to the one statement it runs (session, access, JSON): shown, no target (see README).
    result({
      name,
      metric: 'endpoint vs its own read of the sums',
      unit: 'ms',
      value: run.endpointMs,
      baseline: run.aggregateMs,
    }),
  ];
  console.log(
    `  ${kind}: 'Actions that worked' first call (stores the answer counts once) ${Math.round(run.actionsFirstCallMs)} ms`,
  );
  out.push(
    result({
      name,
      metric: "'Actions that worked' endpoint (median; 4 asked actions per team)",
      unit: 'ms',
      value: run.actionsEndpointMs,
      target: { max: 150 },
    }),
  );
  if (run.longestTaskMs !== undefined)
    out.push(
      result({
        name,
        metric: `page: longest task (load, scroll every column, re-sort; ${run.longTasks} over 50 ms, longest in ${run.longestTaskPhase})`,
        unit: 'ms',
        value: run.longestTaskMs,
        target: { max: 200 },
      }),
    );
  return out;
}

export async function benchOrgInsights() {
  const results = figures('embedded', runWorker('insights-worker.ts', ['--page']));
  const pgUrl = process.env.BENCH_DATABASE_URL;
  if (pgUrl)
    results.push(
      ...figures(
        'PostgreSQL',
        await withScratchDatabase(pgUrl, async (url) => runWorker('insights-worker.ts', [url])),
      ),
    );
  else results.push(skippedWithoutPostgres('org-insights (PostgreSQL)'));
  return results;
}
