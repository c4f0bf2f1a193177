import path from 'node:path';
import { HTTPException } from 'hono/http-exception';
import { secureHeaders } from 'hono/secure-headers';
import { webDistDir } from './db/paths';
import { accountRoutes } from './features/account/routes';
import { apiTokenRoutes } from './features/api-tokens/routes';
import { brandingRoutes } from './features/branding/routes';
import { languageRoutes } from './features/languages/routes';
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
import { auditRoutes } from './features/audit/routes';
import { scimRoutes, scimSettingsRoutes } from './features/scim/routes';
import { ssoRoutes } from './features/sso/routes';
import { finishFlow } from './features/sso/service';
import { finishSaml, SAML_ACS_PREFIX, SAML_BROWSER_COOKIE, spMetadata } from './features/sso/saml';
import { getCookie } from 'hono/cookie';
import { teamRoutes } from './features/team/routes';
import { templateRoutes } from './features/templates/routes';
import { votingRoutes } from './features/voting/routes';
import { webhookRoutes } from './features/webhooks/routes';
import { trackerRoutes } from './features/trackers/routes';
import { workspaceRoutes } from './features/workspaces/routes';
import { authHeaders, clientIp } from './lib/client-ip';
import { limitBody } from './lib/body-limit';
import { originCheck } from './lib/origin-check';
import { devMailRoutes } from './mail/dev-routes';
import { AppError, translateMessage } from './lib/app-error';
import { requestLocale, translatorFor } from './lib/i18n';
import { answerLanguage } from './lib/content-language';
import { createRouter, type AppDeps } from './lib/router';
import { SECURITY_SCHEMES } from './lib/openapi';
import { backupRoutes } from './ops/routes';
import { createMetrics } from './lib/metrics';
import { Hono, type MiddlewareHandler } from 'hono';
import { SYSTEM_MESSAGES } from '@pulsecheck/shared/system/contract';
import type { DatabaseHealth } from './db/health';
import { serveWebApp } from './lib/static-files';
import { SCIM_BASE_PATH } from '@pulsecheck/shared/scim/rules';

/** What a 503 asks clients to wait before they try again. */
const RETRY_AFTER_SECONDS = '5';

/** Probes and the API's description answer whatever the database's state. */
const WITHOUT_DATABASE = new Set(['/api/health', '/api/ready', '/api/openapi.json']);
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Fails fast while the database cannot serve (decision 0017): every request that needs it is answered 503 at once
 * while it is unreachable, and every write 507 while the embedded database's disk is full (reads go on). A request
 * already waiting when the database is found unreachable is answered 503 then: its query may wait in the pool for
 * a connection until the database is back (it may still run then; it was not acknowledged).
 */
function databaseGate(health: DatabaseHealth): MiddlewareHandler {
  return async (c, next) => {
    if (WITHOUT_DATABASE.has(c.req.path)) return next();
    const fault = health.fault();
    if (fault === 'unreachable') throw unavailable();
    if (fault === 'storage_full' && !READS.has(c.req.method))
      throw new AppError('storage_full', SYSTEM_MESSAGES.storageFull);
    let cut!: (error: AppError) => void;
    const cutOff = new Promise<never>((_, reject) => (cut = reject));
    const unsubscribe = health.onUnreachable(() => cut(unavailable()));
    const handled = next();
    // Its outcome no longer matters once cut off.
    handled.catch(() => {});
    try {
      await Promise.race([handled, cutOff]);
    } finally {
      unsubscribe();
    }
  };
}

const unavailable = () => new AppError('database_unavailable', SYSTEM_MESSAGES.databaseUnavailable);

/** The AppError of a query that failed because the database cannot serve, or undefined for any other error. */
function databaseError(deps: AppDeps, error: unknown): AppError | undefined {
  const fault = deps.health.report(error);
  if (fault === 'unreachable')
    return new AppError('database_unavailable', SYSTEM_MESSAGES.databaseUnavailable);
  if (fault === 'storage_full') return new AppError('storage_full', SYSTEM_MESSAGES.storageFull);
  if (fault === 'busy') {
    deps.logger.warn(
      { err: error instanceof Error ? error.message : String(error) },
      'database busy: answered 503',
    );
    return new AppError('database_unavailable', SYSTEM_MESSAGES.databaseBusy);
  }
  return undefined;
}

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

  app.use('/api/*', originCheck(deps.config.appUrl, { exceptPrefix: SAML_ACS_PREFIX }));
  app.use('/api/*', databaseGate(deps.health));
  // Every JSON body fits in 1 MiB (200 comments of 2,000 characters would be 0.4 MiB); the photo upload sets
  // its own limit. Bigger bodies are refused before they are read into memory.
  app.use('/api/*', limitBody(1024 * 1024, 'Request body too large', { except: '/api/account/avatar' }));
  // Answers in the reader's language: the server's message keys, the catalogue's components and questions
  // (lib/content-language.ts); errors are put into words in onError below.
  app.use('/api/*', answerLanguage(deps.config.env !== 'production'));

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

  // SAML 2.0 (features/sso/saml.ts): the service provider's metadata to register, and the assertion consumer
  // service the identity provider's page posts its answer to (binding HTTP-POST).
  app.get('/api/auth/saml/metadata/:providerId', async (c) => {
    const xml = await spMetadata(deps, c.req.param('providerId'));
    if (!xml) throw new AppError('not_found', 'errors.notFound');
    return c.body(xml, 200, { 'content-type': 'application/samlmetadata+xml; charset=utf-8' });
  });
  app.post(`${SAML_ACS_PREFIX}:providerId`, async (c) => {
    const form = await c.req.parseBody();
    const text = (value: unknown) => (typeof value === 'string' ? value : '');
    return finishSaml(deps, {
      providerId: c.req.param('providerId'),
      samlResponse: text(form.SAMLResponse),
      relayState: text(form.RelayState),
      browser: getCookie(c, SAML_BROWSER_COOKIE) ?? null,
      clientIp: clientIp(c),
      userAgent: c.req.header('user-agent') ?? '',
      log: (error) =>
        deps.logger.info(
          { err: error instanceof Error ? error.message : String(error) },
          'SAML response refused',
        ),
    });
  });

  // One line per feature router.
  const featureRoutes = [
    systemRoutes,
    authRoutes,
    onboardingRoutes,
    realtimeRoutes,
    resultsRoutes,
    votingRoutes,
    actionItemRoutes,
    trackerRoutes,
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
    languageRoutes,
    ssoRoutes,
    insightsRoutes,
    apiTokenRoutes,
    webhookRoutes,
    scimSettingsRoutes,
    auditRoutes,
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
  // SCIM 2.0 provisioning (issue 37): its own base URL, its own bearer token and error format (features/scim).
  app.route(SCIM_BASE_PATH, scimRoutes(databaseGate(deps.health)));
  // The e-mail preview exists only on a local installation: outside production and without an SMTP server.
  if (deps.config.env !== 'production' && !deps.config.smtpUrl) app.route('/', devMailRoutes);
  if (deps.backupToken)
    app.route('/', backupRoutes({ token: deps.backupToken, dataDir: deps.config.dataDir }));

  app.openAPIRegistry.registerComponent('securitySchemes', SECURITY_SCHEMES.session, {
    type: 'apiKey',
    in: 'cookie',
    name: `${deps.config.appUrl.startsWith('https://') ? '__Secure-' : ''}better-auth.session_token`,
    description: 'The browser session of a signed-in person (POST /api/login sets it).',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', SECURITY_SCHEMES.token, {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'pc_…',
    description:
      'An API token (Account settings → API tokens): `Authorization: Bearer pc_…`. Each operation lists the scope it needs; operations without this scheme accept only a browser session. Rate limited per token (RateLimit-* headers; 429 with Retry-After). See docs/api/tokens.md.',
  });
  app.doc31('/api/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'Pulsecheck API',
      version: '1.0.0',
      description:
        'Team health checks and pulse surveys. Call it with a browser session or with an API token and the scope each operation names.',
    },
    servers: [{ url: deps.config.appUrl, description: 'This installation (APP_URL)' }],
  });

  app.all('/api/*', (c) => {
    throw new AppError('not_found', 'errors.noRoute', undefined, { method: c.req.method, path: c.req.path });
  });

  app.use(
    '*',
    serveWebApp(path.resolve(options.webDir ?? webDistDir), {
      pseudoLocales: deps.config.env !== 'production',
    }),
  );

  app.onError((error, c) => {
    // The one place an error's messages (catalogue keys) become text: in the request's language (decision 0027).
    const translator = translatorFor(
      requestLocale(c.req.header('accept-language'), deps.config.env !== 'production'),
    );
    const known = error instanceof AppError ? error : databaseError(deps, error);
    if (known) {
      if (known.code === 'database_unavailable') c.header('Retry-After', RETRY_AFTER_SECONDS);
      return c.json(known.toBody(translator), known.status);
    }
    if (error instanceof HTTPException) {
      const code = error.status === 401 ? 'unauthenticated' : error.status === 403 ? 'forbidden' : 'invalid';
      const message = translateMessage(translator, error.message || 'errors.requestRefused');
      return c.json({ error: { code, message } }, error.status);
    }
    // A personal answer link's token is a credential: it never reaches the log (decision 0009).
    const path = c.req.path.replace(/\/loop-answer\/[^/]+/, '/loop-answer/[token]');
    deps.logger.error({ err: error, method: c.req.method, path }, 'unhandled error');
    return c.json({ error: { code: 'internal', message: translator.t('errors.unexpected') } }, 500);
  });

  return app;
}

export type App = ReturnType<typeof createApp>;

/**
 * What a process answers while it starts (main.ts): liveness at /api/health, 503 at /api/ready and everywhere
 * else, until the migrations have run and the whole app takes over.
 */
export function startingApp() {
  return new Hono()
    .get('/api/health', (c) => c.json({ status: 'ok' }, 200))
    .all('*', (c) => {
      c.header('Retry-After', RETRY_AFTER_SECONDS);
      c.header('Cache-Control', 'no-store');
      const message = translatorFor(requestLocale(c.req.header('accept-language'), false)).t(
        SYSTEM_MESSAGES.starting,
      );
      return c.json({ error: { code: 'unavailable', message } }, 503);
    });
}
