import type { Config } from '../config';

export const SESSION_DAYS = 30;
/** How often a session's expiry slides forward. */
export const SESSION_UPDATE_AGE_SECONDS = 60 * 60 * 24;

/** What every better-auth instance of the server shares: origin, secret, sessions and cookies. */
export function sharedAuthOptions(config: Config) {
  const secure = config.appUrl.startsWith('https://');
  return {
    appName: 'Pulsecheck',
    baseURL: config.appUrl,
    basePath: '/api/auth',
    secret: config.authSecret,
    session: {
      expiresIn: 60 * 60 * 24 * SESSION_DAYS,
      updateAge: SESSION_UPDATE_AGE_SECONDS,
    },
    advanced: {
      useSecureCookies: secure,
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' as const, secure },
      ipAddress: { ipAddressHeaders: ['x-forwarded-for'] },
    },
    telemetry: { enabled: false },
    // better-auth logs refusals itself (a token that failed verification, say); quiet where our logs are.
    logger: { disabled: config.logLevel === 'silent' },
  };
}
