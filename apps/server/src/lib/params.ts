import { z } from '@hono/zod-openapi';
import { UUID_PATTERN } from '@pulsecheck/shared/api/ids';
import { HEALTH_CHECK_NOT_FOUND } from '@pulsecheck/shared/health-checks/rules';

/**
 * The one way to declare an id in a path. Anything but a UUID is simply not found: the router answers 404 with
 * `notFoundMessage`, the same answer as for a well-formed id that does not exist or is not the caller's (never a
 * 400, and never a database error). `aliases` are words that stand for an id (the templates' 'new').
 */
export const idParam = (notFoundMessage: string, ...aliases: string[]) =>
  z
    .string()
    .max(64)
    .refine((id) => UUID_PATTERN.test(id) || aliases.includes(id), notFoundMessage);

/** The path of every route under `/health-checks/{healthCheckId}`. */
export const checkParams = z.object({ healthCheckId: idParam(HEALTH_CHECK_NOT_FOUND) });
