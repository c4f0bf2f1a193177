// api-token: the same API read with an API token and with a browser session, interleaved, autocannon, on the
// embedded database and, with BENCH_DATABASE_URL, on PostgreSQL. A token request also counts against its rate
// limit (one UPDATE of its row in rate_limit) and looks its token up by hash; the target says that costs at
// most 1.2× the session's read.
import autocannon from 'autocannon';
import { call, setUpCheck, startApp } from './app-server.mjs';
import { withScratchDatabase } from './autosave.mjs';
import { result } from './report.mjs';

const CONNECTIONS = Number(process.env.BENCH_TOKEN_CONNECTIONS ?? 10);
const DURATION = Number(process.env.BENCH_TOKEN_DURATION ?? 5);
const ROUNDS = 3;

async function load(url, headers) {
  const run = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  return { rps: run.requests.average, p99: run.latency.p99, errors: run.errors + run.non2xx };
}

async function benchOne(kind, databaseUrl) {
  const app = await startApp({ databaseUrl });
  try {
    const { healthCheckId, adminCookie } = await setUpCheck(app.url);
    const created = await (
      await call(app.url, 'POST', '/api/account/api-tokens', {
        cookie: adminCookie,
        body: { name: 'Bench', scopes: ['health-checks:read', 'results:read'], expiresInDays: null },
      })
    ).json();
    const reads = {
      'health check': `/api/health-checks/${healthCheckId}`,
      results: `/api/health-checks/${healthCheckId}/results`,
    };
    const out = [];
    for (const [label, pathname] of Object.entries(reads)) {
      const url = `${app.url}${pathname}`;
      // Warm both paths, then interleave so a slower moment of the machine falls on both.
      await load(url, { cookie: adminCookie });
      await load(url, { authorization: `Bearer ${created.secret}` });
      const session = [];
      const token = [];
      for (let round = 0; round < ROUNDS; round++) {
        session.push(await load(url, { cookie: adminCookie }));
        token.push(await load(url, { authorization: `Bearer ${created.secret}` }));
      }
      const mean = (runs, key) => runs.reduce((sum, run) => sum + run[key], 0) / runs.length;
      const name = `api-token ${label} (${kind})`;
      out.push(
        // Cost per request is the inverse of throughput: token cost / session cost = session rps / token rps.
        result({
          name,
          metric: 'cost per read, token vs session (session req/s / token req/s)',
          value: mean(session, 'rps'),
          baseline: mean(token, 'rps'),
          target: { maxRatio: 1.2 },
        }),
        result({
          name,
          metric: 'req/s, token (baseline: session)',
          unit: 'req/s',
          value: mean(token, 'rps'),
          baseline: mean(session, 'rps'),
        }),
        result({
          name,
          metric: 'p99 latency, token (baseline: session)',
          unit: 'ms',
          value: mean(token, 'p99'),
          baseline: mean(session, 'p99'),
        }),
        result({
          name,
          metric: 'errors and non-2xx',
          value: [...session, ...token].reduce((sum, run) => sum + run.errors, 0),
          target: { max: 0 },
        }),
      );
    }
    return out;
  } finally {
    await app.stop();
  }
}

export async function benchApiTokens() {
  const results = await benchOne('embedded', '');
  const pgUrl = process.env.BENCH_DATABASE_URL;
  if (pgUrl) results.push(...(await withScratchDatabase(pgUrl, (url) => benchOne('PostgreSQL', url))));
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
