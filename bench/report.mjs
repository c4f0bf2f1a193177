// Shared by every benchmark: the machine record and the report files (latest.json and latest.md).
import { spawnSync } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const resultsDir = path.join(import.meta.dirname, 'results');

export function machine() {
  const cores = cpus();
  return {
    cores: cores.length,
    cpu: cores[0]?.model ?? 'unknown',
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    date: new Date().toISOString(),
  };
}

/**
 * One measured figure. `target` is { max } or { min } on `value`, or { minRatio } / { maxRatio } on
 * `ratio` (= value / baseline); `pass` says whether it was met (true when there is no target).
 */
export function result({ name, metric, value, baseline = null, target = null, unit = '' }) {
  const ratio = baseline ? Math.round((value / baseline) * 1000) / 1000 : null;
  let pass = true;
  if (target?.max !== undefined) pass &&= value <= target.max;
  if (target?.min !== undefined) pass &&= value >= target.min;
  if (target?.minRatio !== undefined) pass &&= ratio !== null && ratio >= target.minRatio;
  if (target?.maxRatio !== undefined) pass &&= ratio !== null && ratio <= target.maxRatio;
  return {
    name,
    metric,
    unit,
    value: round(value),
    baseline: baseline === null ? null : round(baseline),
    ratio,
    target,
    pass,
  };
}

/** The PostgreSQL half of a benchmark without BENCH_DATABASE_URL: a failed row that says why. */
export const skippedWithoutPostgres = (name) =>
  result({ name, metric: 'skipped: BENCH_DATABASE_URL not set', value: 0, target: { min: 1 } });

/**
 * Runs a TypeScript worker of bench/ (`tsx <script> ...args`) in a process of its own and answers the JSON of the
 * last line it prints; throws with its output when it fails.
 */
export function runWorker(script, args = []) {
  const run = spawnSync('npx', ['tsx', path.join(import.meta.dirname, script), ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = run.stdout.trim().split('\n').at(-1) ?? '';
  if (run.status !== 0 || !line.startsWith('{')) throw new Error(`${script} failed:\n${run.stdout}`);
  return JSON.parse(line);
}

const round = (n) => (Math.abs(n) >= 100 ? Math.round(n) : Math.round(n * 100) / 100);

const describeTarget = (t) =>
  !t
    ? ''
    : [
        t.max !== undefined && `≤ ${t.max}`,
        t.min !== undefined && `≥ ${t.min}`,
        t.minRatio !== undefined && `ratio ≥ ${t.minRatio}`,
        t.maxRatio !== undefined && `ratio ≤ ${t.maxRatio}`,
      ]
        .filter(Boolean)
        .join(', ');

export function writeReport(results, file = 'latest') {
  mkdirSync(resultsDir, { recursive: true });
  const report = { machine: machine(), results };
  writeFileSync(path.join(resultsDir, `${file}.json`), `${JSON.stringify(report, null, 2)}\n`);
  const m = report.machine;
  const lines = [
    `# Benchmarks (${m.date})`,
    '',
    `Machine: ${m.cores} cores (${m.cpu}), ${m.memoryGiB} GiB, Node ${m.node}, ${m.platform}.`,
    '',
    '| benchmark | metric | value | baseline | ratio | target | pass |',
    '|---|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.name} | ${r.metric} | ${r.value}${r.unit ? ` ${r.unit}` : ''} | ${r.baseline ?? ''} | ${r.ratio ?? ''} | ${describeTarget(r.target)} | ${r.pass ? 'yes' : '**NO**'} |`,
    ),
    '',
  ];
  writeFileSync(path.join(resultsDir, `${file}.md`), lines.join('\n'));
  return lines.join('\n');
}
