import { OpenAPIHono } from '@hono/zod-openapi';
import { fieldErrors } from '@pulsecheck/shared/api/errors';
import type { Auth } from '../auth/auth';
import type { TokenCaller } from '../auth/api-tokens';
import type { SessionUser } from '../auth/session';
import type { Config } from '../config';
import type { Database, Db } from '../db/client';
import type { DatabaseHealth } from '../db/health';
import type { Logger } from '../logger';
import type { Mailer } from '../mail/mailer';
import type { Realtime } from '../realtime/bus';
import { AppError } from './app-error';

export type AppDeps = {
  config: Config;
  database: Database;
  db: Db;
  /** Whether the database serves now (db/health.ts): requests fail fast while it does not. */
  health: DatabaseHealth;
  logger: Logger;
  auth: Auth;
  mailer: Mailer;
  realtime: Realtime;
  /** Set by a server on the embedded database: the token `npm run backup` reads from DATA_DIR/server.json. */
  backupToken?: string;
};

export type AppEnv = {
  Variables: {
    deps: AppDeps;
    user: SessionUser | null | undefined;
    /** The API token behind the request, when it came with one (auth/api-tokens.ts). */
    apiToken: TokenCaller | undefined;
  };
};

export const NUL_MESSAGE = 'errors.nulCharacter';

/** Whether any string (or key) in a parsed request part holds U+0000, which PostgreSQL text cannot store. */
function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\0');
  if (Array.isArray(value)) return value.some(containsNul);
  if (value && typeof value === 'object')
    return Object.entries(value).some(([key, item]) => key.includes('\0') || containsNul(item));
  return false;
}

/**
 * A feature router. A failed request validation becomes the project's 400 body, first message per field; so
 * does text with a NUL character, which would otherwise reach the database and fail there. A malformed id in the
 * path (declared with `idParam`) is a 404 with that id's not-found message, like an id that does not exist.
 */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) {
        const fields = fieldErrors(result.error);
        const message = Object.values(fields)[0];
        if (result.target === 'param') throw new AppError('not_found', message ?? 'errors.notFound');
        throw new AppError('invalid', message ?? 'errors.invalidRequest', fields);
      }
      if (containsNul(result.data)) throw new AppError('invalid', NUL_MESSAGE);
    },
  });
}
