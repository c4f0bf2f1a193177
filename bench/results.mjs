// results: the results endpoint on a check with 10,000 participants × 29 components and 60 follow-up questions
// (decision 0019, each answered by a fifth of the participants), against the bare SQL
// aggregate of its ratings, timed in the same process (median of 30 runs), on the embedded database and
// PostgreSQL. The endpoint's first read after collection counts the ratings once and stores the counts; it is
// printed apart.
import { withScratchDatabase } from './autosave.mjs';
import { result, runWorker } from './report.mjs';

function figures(kind, { endpointMs, aggregateMs, firstMs }) {
  const name = `results (${kind}, 10,000 × 29, 60 follow-ups)`;
  console.log(
    `  ${kind}: first call (counts the ratings once and stores the counts) ${Math.round(firstMs)} ms`,
  );
  return [
    result({ name, metric: 'endpoint time (median)', unit: 'ms', value: endpointMs, target: { max: 100 } }),
    result({
      name,
      metric: 'endpoint vs bare SQL aggregate',
      unit: 'ms',
      value: endpointMs,
      baseline: aggregateMs,
      target: { maxRatio: 2 },
    }),
  ];
}

export async function benchResults() {
  const results = figures('embedded', runWorker('results-worker.ts'));
  const pgUrl = process.env.BENCH_DATABASE_URL;
  if (pgUrl)
    results.push(
      ...figures(
        'PostgreSQL',
        await withScratchDatabase(pgUrl, async (url) => runWorker('results-worker.ts', [url])),
      ),
    );
  return results;
}
