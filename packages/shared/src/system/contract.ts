import { z } from 'zod';

export const healthResponseSchema = z.object({ status: z.literal('ok') });
export type HealthResponse = z.infer<typeof healthResponseSchema>;

export const readyResponseSchema = z.object({ status: z.literal('ready') });
export type ReadyResponse = z.infer<typeof readyResponseSchema>;

export const SYSTEM_MESSAGES = {
  databaseUnreachable: 'The database is not reachable',
  starting: 'Pulsecheck is starting: the database migrations are running',
} as const;
