import type { MiddlewareHandler } from 'hono';
import { AppError } from './app-error';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF protection for cookie-authenticated writes: browsers send Origin (and Sec-Fetch-Site) on every
 * cross-origin write, so a write whose Origin is not ours, or that the browser marks cross-site, is refused.
 * Clients that are not browsers send neither and are unaffected (they hold no victim's cookies).
 */
export function originCheck(appUrl: string, options: { exceptPrefix?: string } = {}): MiddlewareHandler {
  const allowed = new URL(appUrl).origin;
  return async (c, next) => {
    // The SAML assertion consumer service is posted to from the identity provider's page by design; the signed,
    // request-bound, once-only assertion is its protection (features/sso/saml.ts), and it reads no cookie.
    const excepted = options.exceptPrefix !== undefined && c.req.path.startsWith(options.exceptPrefix);
    if (!SAFE.has(c.req.method) && !excepted) {
      const origin = c.req.header('origin');
      const site = c.req.header('sec-fetch-site');
      if ((origin && origin !== allowed) || site === 'cross-site') {
        throw new AppError('forbidden', 'errors.crossSite');
      }
    }
    await next();
  };
}
