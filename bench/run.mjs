// npm run bench [names...]: runs the benchmarks (all by default), writes bench/results/latest.{json,md},
// and exits non-zero when any target is missed.
import { benchApiTokens } from './api-tokens.mjs';
import { benchAuditLog } from './audit-log.mjs';
import { benchAutosave } from './autosave.mjs';
import { benchBundle } from './bundle.mjs';
import { benchLighthouse } from './lighthouse.mjs';
import { benchLoopInsights, benchLoopRoundOpen } from './loops.mjs';
import { benchMemory } from './memory.mjs';
import { benchOrgInsights } from './org-insights.mjs';
import { benchParticipants } from './participants.mjs';
import { benchResults } from './results.mjs';
import { benchScim } from './scim.mjs';
import { result, writeReport } from './report.mjs';

const BENCHES = {
  autosave: benchAutosave,
  participants: benchParticipants,
  results: benchResults,
  'loop-insights': benchLoopInsights,
  'loop-round-open': benchLoopRoundOpen,
  'org-insights': benchOrgInsights,
  bundle: benchBundle,
  lighthouse: benchLighthouse,
  memory: benchMemory,
  'api-token': benchApiTokens,
  scim: benchScim,
  'audit-log': benchAuditLog,
};

const wanted = process.argv.slice(2);
const names = wanted.length ? wanted : Object.keys(BENCHES);
const results = [];
for (const name of names) {
  const bench = BENCHES[name];
  if (!bench) {
    console.error(`Unknown benchmark ${name}; known: ${Object.keys(BENCHES).join(', ')}`);
    process.exit(2);
  }
  console.log(`== ${name}`);
  try {
    results.push(...(await bench()));
  } catch (error) {
    // One benchmark that cannot run (no Chromium, a server that would not start) fails alone: the others still
    // run and the report still says what each measured.
    console.error(error);
    const why = String(error?.message ?? error).split('\n')[0];
    results.push(result({ name, metric: `failed: ${why}`, value: 0, target: { min: 1 } }));
  }
}
console.log(writeReport(results));
process.exit(results.every((r) => r.pass) ? 0 : 1);
