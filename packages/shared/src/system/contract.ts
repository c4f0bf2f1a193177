import { z } from 'zod';

export const healthResponseSchema = z.object({ status: z.literal('ok') });
export type HealthResponse = z.infer<typeof healthResponseSchema>;

export const readyResponseSchema = z.object({ status: z.literal('ready') });
export type ReadyResponse = z.infer<typeof readyResponseSchema>;

export const SYSTEM_MESSAGES = {
  starting: 'system.starting',
  /** A request that needs the database while it does not answer or refuses connections. */
  databaseUnavailable: 'system.databaseUnavailable',
  /** A statement that waited too long for a lock or ran past the statement timeout. */
  databaseBusy: 'system.databaseBusy',
  /** A write on the embedded database while its disk is full. */
  storageFull: 'system.storageFull',
} as const;
