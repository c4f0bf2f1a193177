import path from 'node:path';
import { HTTPException } from 'hono/http-exception';
import { secureHeaders } from 'hono/secure-headers';
import { webDistDir } from './db/paths';
import { accountRoutes } from './features/account/routes';
import { brandingRoutes } from './features/branding/routes';
import { actionItemRoutes } from './features/action-items/routes';
import { authRoutes } from './features/auth/routes';
import { dashboardRoutes } from './features/dashboard/routes';
import { healthCheckRoutes } from './features/health-checks/routes';
import { insightsRoutes } from './features/insights/routes';
import { loopRoutes } from './features/loops/routes';
import { systemRoutes } from './features/system/routes';
import { notificationRoutes } from './features/notifications/routes';
import { onboardingRoutes } from './features/onboarding/routes';
import { participationRoutes } from './features/participation/routes';
import { realtimeRoutes } from './features/realtime/routes';
import { resultsRoutes } from './features/results/routes';
import { securityRoutes } from './features/security/routes';
import { ssoRoutes } from './features/sso/routes';
import { finishFlow } from './features/sso/service';
import { teamRoutes } from './features/team/routes';
import { templateRoutes } from './features/templates/routes';
import { votingRoutes } from './features/voting/routes';
import { workspaceRoutes } from './features/workspaces/routes';
import { authHeaders } from './lib/client-ip';
import { limitBody } from './lib/body-limit';
import { originCheck } from './lib/origin-check';
import { devMailRoutes } from './mail/dev-routes';
import { AppError } from './lib/app-error';
import { createRouter, type AppDeps } from './lib/router';
import { backupRoutes } from './ops/routes';
import { createMetrics } from './lib/metrics';
import { Hono } from 'hono';
import { SYSTEM_MESSAGES } from '@pulsecheck/shared/system/contract';
import { ping, type Database } from './db/client';
import { serveWebApp } from './lib/static-files';

/** Builds the whole HTTP application from the feature routers. No logic of its own. */
export function createApp(deps: AppDeps, options: { webDir?: string } = {}) {
  const app = createRouter();
  const metrics = createMetrics(deps);

  app.use('*', async (c, next) => {
    c.set('deps', deps);
    await next();
  });
  app.use('*', metrics.middleware);
  app.get('/metrics', metrics.handler);
  app.use(
    '*',
    secureHeaders({
      crossOriginEmbedderPolicy: false,
      referrerPolicy: 'strict-origin-when-cross-origin',
      xFrameOptions: 'DENY',
      strictTransportSecurity: deps.config.appUrl.startsWith('https://')
        ? 'max-age=31536000; includeSubDomains'
        : false,
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Radix and sonner position elements with inline styles.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'"],
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    }),
  );

  app.use('/api/*', originCheck(deps.config.appUrl));
  // Every JSON body fits in 1 MiB (200 comments of 2,000 characters would be 0.4 MiB); the photo upload sets
  // its own limit. Bigger bodies are refused before they are read into memory.
  app.use('/api/*', limitBody(1024 * 1024, 'Request body too large', { except: '/api/account/avatar' }));

  // better-auth serves only the targets of the links it e-mails; everything else goes through our routes.
  app.get('/api/auth/verify-email', (c) =>
    deps.auth.handler(new Request(c.req.raw, { headers: authHeaders(c) })),
  );
  app.get('/api/auth/reset-password/:token', (c) =>
    deps.auth.handler(new Request(c.req.raw, { headers: authHeaders(c) })),
  );
  // The identity provider's redirect back after 'Sign in with SSO' or 'Test connection' (features/sso).
  app.get('/api/auth/sso/callback/:providerId', (c) =>
    finishFlow(deps, new Request(c.req.raw, { headers: authHeaders(c) })),
  );

  // One line per feature router.
  const featureRoutes = [
    systemRoutes,
    authRoutes,
    onboardingRoutes,
    realtimeRoutes,
    resultsRoutes,
    votingRoutes,
    actionItemRoutes,
    notificationRoutes,
    participationRoutes,
    workspaceRoutes,
    templateRoutes,
    healthCheckRoutes,
    loopRoutes,
    dashboardRoutes,
    teamRoutes,
    accountRoutes,
    securityRoutes,
    brandingRoutes,
    ssoRoutes,
    insightsRoutes,
  ];
  const api = createRouter();
  // Answers of the API are about one person or one team: no browser or proxy keeps a copy, unless a route says
  // otherwise (profile photos, whose ids change with every upload; live streams).
  api.use('*', async (c, next) => {
    await next();
    if (!c.res.headers.has('Cache-Control')) c.res.headers.set('Cache-Control', 'no-store');
  });
  for (const routes of featureRoutes) api.route('/', routes);
  app.route('/api', api);
  // The e-mail preview exists only on a local installation: outside production and without an SMTP server.
  if (deps.config.env !== 'production' && !deps.config.smtpUrl) app.route('/', devMailRoutes);
  if (deps.backupToken)
    app.route('/', backupRoutes({ token: deps.backupToken, dataDir: deps.config.dataDir }));

  app.doc31('/api/openapi.json', {
    openapi: '3.1.0',
    info: { title: 'Pulsecheck API', version: '1.0.0' },
  });

  app.all('/api/*', (c) =>
    c.json({ error: { code: 'not_found', message: `No API route ${c.req.method} ${c.req.path}` } }, 404),
  );

  app.use('*', serveWebApp(path.resolve(options.webDir ?? webDistDir)));

  app.onError((error, c) => {
    if (error instanceof AppError) return c.json(error.toBody(), error.status);
    if (error instanceof HTTPException) {
      const code = error.status === 401 ? 'unauthenticated' : error.status === 403 ? 'forbidden' : 'invalid';
      return c.json({ error: { code, message: error.message || 'Request refused' } }, error.status);
    }
    // A personal answer link's token is a credential: it never reaches the log (decision 0009).
    const path = c.req.path.replace(/\/loop-answer\/[^/]+/, '/loop-answer/[token]');
    deps.logger.error({ err: error, method: c.req.method, path }, 'unhandled error');
    return c.json({ error: { code: 'internal', message: 'An unexpected error occurred' } }, 500);
  });

  return app;
}

export type App = ReturnType<typeof createApp>;

/**
 * What a process answers while it starts (main.ts): liveness at /api/health, 503 at /api/ready and everywhere
 * else, until the migrations have run and the whole app takes over.
 */
export function startingApp(database: Database) {
  const starting = { error: { code: 'unavailable', message: SYSTEM_MESSAGES.starting } };
  return new Hono()
    .get('/api/health', async (c) => {
      try {
        await ping(database.db);
        return c.json({ status: 'ok' }, 200);
      } catch {
        return c.json({ error: { code: 'unavailable', message: SYSTEM_MESSAGES.databaseUnreachable } }, 503);
      }
    })
    .all('*', (c) => {
      c.header('Retry-After', '5');
      c.header('Cache-Control', 'no-store');
      return c.json(starting, 503);
    });
}
