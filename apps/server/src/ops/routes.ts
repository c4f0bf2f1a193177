import { Hono } from 'hono';
import { isLoopback, socketAddress } from '../lib/client-ip';
import type { AppEnv } from '../lib/router';
import { takeBackup } from './automatic';
import { bearerMatches } from './server-file';

/**
 * POST /internal/backup: `npm run backup` asks the server running on the embedded database (which only that
 * process may open) for a snapshot into `DATA_DIR/backups`, and moves the file where it was asked to. Only
 * from this machine (the TCP peer, never a header) and with the token of `DATA_DIR/server.json`, which only the
 * server's own user can read; anyone else gets a 404.
 */
export const backupRoutes = (options: { token: string; dataDir: string }) =>
  new Hono<AppEnv>().post('/internal/backup', async (c) => {
    if (!isLoopback(socketAddress(c)) || !bearerMatches(c.req.header('authorization'), options.token))
      return c.notFound();
    const { file, header } = await takeBackup(c.get('deps').database, options.dataDir, 'manual');
    return c.json({ file, header }, 200);
  });
