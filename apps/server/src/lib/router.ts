import { OpenAPIHono } from '@hono/zod-openapi';
import { fieldErrors } from '@pulsecheck/shared/api/errors';
import type { Config } from '../config';
import type { Database, Db } from '../db/client';
import type { Logger } from '../logger';
import { AppError } from './app-error';

export type AppDeps = {
  config: Config;
  database: Database;
  db: Db;
  logger: Logger;
};

export type AppEnv = { Variables: { deps: AppDeps } };

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
