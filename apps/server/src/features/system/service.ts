import { ping, type Db } from '../../db/client';
import type { Logger } from '../../logger';

export async function checkHealth(db: Db, logger: Logger): Promise<boolean> {
  try {
    await ping(db);
    return true;
  } catch (error) {
    logger.error({ err: error }, 'health check: database round trip failed');
    return false;
  }
}
