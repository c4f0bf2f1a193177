import { sql } from 'drizzle-orm';
import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { queryRows } from '../db/client';
import { bearerMatches } from '../ops/server-file';
import { fromThisMachine } from './client-ip';
import type { AppDeps, AppEnv } from './router';

/**
 * /metrics (Prometheus text format, prom-client): requests by route pattern (never by id), their durations, open
 * live streams, the e-mail outbox's backlog and oldest unsent age, the job queue's due work and lag, the
 * database pool's connections, and the process (memory, CPU, event loop). Readable from this machine
 * (`fromThisMachine`: a loopback peer and a local `Host`), or from
 * elsewhere with `Authorization: Bearer $METRICS_TOKEN`; anyone else gets a 404. Each app has its own registry.
 */
export function createMetrics(deps: AppDeps) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // prom-client names three gauges `…_total`, a suffix Prometheus keeps for counters (promtool refuses them);
  // the same figures are the sums of `nodejs_active_handles`, `nodejs_active_requests` and
  // `nodejs_active_resources` by type, which stay.
  for (const name of ['handles', 'requests', 'resources'])
    registry.removeSingleMetric(`nodejs_active_${name}_total`);
  const requests = new Counter({
    name: 'pulsecheck_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'pulsecheck_http_request_duration_seconds',
    help: 'Time to answer HTTP requests (until the headers; a live stream counts until it opens), by route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  new Gauge({
    name: 'pulsecheck_live_streams',
    help: 'Live event streams (Server-Sent Events) open on this process',
    registers: [registry],
    collect() {
      this.set(deps.realtime.openStreams());
    },
  });
  const outboxPending = new Gauge({
    name: 'pulsecheck_outbox_pending',
    help: 'E-mails waiting in the outbox (all processes)',
    registers: [registry],
  });
  const outboxOldest = new Gauge({
    name: 'pulsecheck_outbox_oldest_pending_age_seconds',
    help: 'Age of the oldest e-mail not sent yet (0 when none waits)',
    registers: [registry],
  });
  const jobsDue = new Gauge({
    name: 'pulsecheck_jobs_due',
    help: 'Scheduled jobs whose time has come and that have not run yet (all processes)',
    registers: [registry],
  });
  const jobLag = new Gauge({
    name: 'pulsecheck_job_lag_seconds',
    help: 'How late the most overdue job is (0 when none is due)',
    registers: [registry],
  });
  const connections = new Gauge({
    name: 'pulsecheck_db_connections',
    help: "This process's database connections by state (PostgreSQL; the embedded database has one, in process)",
    labelNames: ['state'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'pulsecheck_db_pool_size',
    help: 'The most database connections this process opens',
    registers: [registry],
    collect() {
      this.set(deps.database.poolSize);
    },
  });

  /** The figures that come from the database, read in one round trip per scrape. */
  async function readDatabase() {
    const [row] = await queryRows<{
      outbox_pending: number;
      outbox_oldest: number | null;
      jobs_due: number;
      job_lag: number | null;
    }>(
      deps.db,
      sql`select (select count(*)::int from mail_outbox where status = 'pending') as outbox_pending,
                 (select extract(epoch from now() - min(created_at))::float8 from mail_outbox
                   where status = 'pending') as outbox_oldest,
                 (select count(*)::int from jobs where status = 'pending' and run_at <= now()) as jobs_due,
                 (select extract(epoch from now() - min(run_at))::float8 from jobs
                   where status = 'pending' and run_at <= now()) as job_lag`,
    );
    outboxPending.set(row?.outbox_pending ?? 0);
    outboxOldest.set(Math.max(0, row?.outbox_oldest ?? 0));
    jobsDue.set(row?.jobs_due ?? 0);
    jobLag.set(Math.max(0, row?.job_lag ?? 0));
    connections.reset();
    if (deps.database.kind === 'postgres') {
      const states = await queryRows<{ state: string | null; count: number }>(
        deps.db,
        sql`select state, count(*)::int as count from pg_stat_activity
            where application_name = ${deps.database.applicationName} group by state`,
      );
      for (const { state, count } of states) connections.set({ state: state ?? 'unknown' }, count);
    } else connections.set({ state: 'active' }, 1);
  }

  /** The route pattern that answered (`/api/health-checks/:healthCheckId`), never the path with its ids. */
  const routeOf = (c: Context<AppEnv>) => {
    const handler = matchedRoutes(c).findLast((route) => route.method !== 'ALL');
    if (handler) return handler.path;
    return c.req.path.startsWith('/api/') ? 'unknown' : 'web app';
  };

  const middleware: MiddlewareHandler<AppEnv> = async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const route = routeOf(c);
      if (route !== '/metrics') {
        requests.inc({ method: c.req.method, route, status: String(c.res.status) });
        durations.observe({ method: c.req.method, route }, (performance.now() - started) / 1000);
      }
    }
  };

  const handler = async (c: Context<AppEnv>) => {
    const token = deps.config.metricsToken;
    const allowed =
      fromThisMachine(c) || (token !== undefined && bearerMatches(c.req.header('authorization'), token));
    if (!allowed) return c.notFound();
    await readDatabase();
    c.header('Content-Type', registry.contentType);
    c.header('Cache-Control', 'no-store');
    return c.body(await registry.metrics(), 200);
  };

  return { registry, middleware, handler };
}
