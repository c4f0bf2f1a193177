import path from 'node:path';
import { HTTPException } from 'hono/http-exception';
import { secureHeaders } from 'hono/secure-headers';
import { webDistDir } from './db/paths';
import { healthRoutes } from './features/health/routes';
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
    secureHeaders({ crossOriginEmbedderPolicy: false, referrerPolicy: 'strict-origin-when-cross-origin' }),
  );

  const api = createRouter().route('/', healthRoutes);
  app.route('/api', api);

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
