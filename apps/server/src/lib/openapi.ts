import { errorBodySchema } from '@pulsecheck/shared/api/errors';
import type { z } from 'zod';

/** Small helpers so each route declares its request and responses in one line each. */
export const jsonBody = <T extends z.ZodType>(schema: T) => ({
  body: { content: { 'application/json': { schema } }, required: true },
});

export const jsonResponse = <T extends z.ZodType>(schema: T, description: string) => ({
  content: { 'application/json': { schema } },
  description,
});

export const errorResponses = (...statuses: (400 | 401 | 403 | 404 | 409 | 413 | 429)[]) =>
  Object.fromEntries(
    statuses.map((status) => [
      status,
      { content: { 'application/json': { schema: errorBodySchema } }, description: 'Error' },
    ]),
  ) as Record<
    number,
    { content: { 'application/json': { schema: typeof errorBodySchema } }; description: string }
  >;
