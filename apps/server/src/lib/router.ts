import { OpenAPIHono } from '@hono/zod-openapi';
import { fieldErrors } from '@pulsecheck/shared/api/errors';
import type { Auth } from '../auth/auth';
import type { SessionUser } from '../auth/session';
import type { Config } from '../config';
import type { Database, Db } from '../db/client';
import type { Logger } from '../logger';
import type { Mailer } from '../mail/mailer';
import type { Realtime } from '../realtime/bus';
import { AppError } from './app-error';

export type AppDeps = {
  config: Config;
  database: Database;
  db: Db;
  logger: Logger;
  auth: Auth;
  mailer: Mailer;
  realtime: Realtime;
};

export type AppEnv = { Variables: { deps: AppDeps; user: SessionUser | null | undefined } };

/** A feature router. A failed request validation becomes the project's 400 body, first message per field. */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) {
        const fields = fieldErrors(result.error);
        throw new AppError('invalid', Object.values(fields)[0] ?? 'Invalid request', fields);
      }
    },
  });
}
