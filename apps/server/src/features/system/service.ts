import { SYSTEM_MESSAGES } from '@pulsecheck/shared/system/contract';
import type { DatabaseHealth } from '../../db/health';

/**
 * Whether this process should get traffic: null when the database answers a round trip within the ping deadline
 * and its disk has room, else the 503 answer's code and message. Never waits longer than that deadline, so a load
 * balancer sees a clear 503 within a second of an outage rather than a timeout.
 */
export async function readiness(health: DatabaseHealth) {
  if (health.fault() === 'storage_full')
    return { code: 'storage_full' as const, message: SYSTEM_MESSAGES.storageFull };
  if (await health.check()) return null;
  return { code: 'database_unavailable' as const, message: SYSTEM_MESSAGES.databaseUnavailable };
}
