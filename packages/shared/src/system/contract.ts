import { z } from 'zod';

export const healthResponseSchema = z.object({ status: z.literal('ok') });
export type HealthResponse = z.infer<typeof healthResponseSchema>;

export const readyResponseSchema = z.object({ status: z.literal('ready') });
export type ReadyResponse = z.infer<typeof readyResponseSchema>;

export const SYSTEM_MESSAGES = {
  starting: 'Pulsecheck is starting: the database migrations are running',
  /** A request that needs the database while it does not answer or refuses connections. */
  databaseUnavailable: 'The database is not reachable at the moment. Please try again in a few seconds.',
  /** A statement that waited too long for a lock or ran past the statement timeout. */
  databaseBusy: 'The database is too busy to answer at the moment. Please try again in a few seconds.',
  /** A write on the embedded database while its disk is full. */
  storageFull:
    "The server's disk is full: nothing can be saved until space is freed. Your data so far is safe.",
} as const;
