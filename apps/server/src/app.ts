import path from 'node:path';
import { HTTPException } from 'hono/http-exception';
import { secureHeaders } from 'hono/secure-headers';
import { webDistDir } from './db/paths';
import { accountRoutes } from './features/account/routes';
import { actionItemRoutes } from './features/action-items/routes';
import { authRoutes } from './features/auth/routes';
import { dashboardRoutes } from './features/dashboard/routes';
import { healthCheckRoutes } from './features/health-checks/routes';
import { loopRoutes } from './features/loops/routes';
import { systemRoutes } from './features/system/routes';
import { notificationRoutes } from './features/notifications/routes';
import { onboardingRoutes } from './features/onboarding/routes';
import { participationRoutes } from './features/participation/routes';
import { realtimeRoutes } from './features/realtime/routes';
import { resultsRoutes } from './features/results/routes';
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
import { serveWebApp } from './lib/static-files';

/** Builds the whole HTTP application from the feature routers. No logic of its own. */
export function createApp(deps: AppDeps, options: { webDir?: string } = {}) {
  const app = createRouter();

  app.use('*', async (c, next) => {
    c.set('deps', deps);
    await next();
  });
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
    deps.logger.error({ err: error, method: c.req.method, path: c.req.path }, 'unhandled error');
    return c.json({ error: { code: 'internal', message: 'An unexpected error occurred' } }, 500);
  });

  return app;
}

export type App = ReturnType<typeof createApp>;
