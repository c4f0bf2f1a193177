import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const testDatabaseUrl = process.env.TEST_DATABASE_URL;
const integration = (name: string, kind: 'pglite' | 'postgres') => ({
  extends: './apps/server/vitest.config.ts',
  test: {
    name,
    root: './apps/server',
    include: ['src/**/*.integration.test.ts'],
    env: { TEST_DB_KIND: kind },
    // Each file opens its own app on its own copy of the database; sharing the module graph between the files of
    // a worker saves loading the server's code ~80 times per database.
    isolate: false,
    globalSetup: ['./src/test/global-setup.ts'],
  },
});

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: on the 2-core machines this project runs on, one file
    // at a time. The database tests mostly wait on PostgreSQL or on a child process, so two run side by side.
    maxWorkers: 2,
    projects: [
      { test: { name: 'shared', root: './packages/shared', include: ['src/**/*.test.ts'] } },
      {
        extends: './apps/server/vitest.config.ts',
        test: {
          name: 'server',
          root: './apps/server',
          include: ['src/**/*.test.ts'],
          exclude: ['src/**/*.integration.test.ts'],
        },
      },
      integration('server-pglite', 'pglite'),
      ...(testDatabaseUrl ? [integration('server-postgres', 'postgres')] : []),
      {
        extends: './apps/web/vite.config.ts',
        test: {
          name: 'web',
          root: fileURLToPath(new URL('./apps/web', import.meta.url)),
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['./vitest.setup.ts'],
        },
      },
    ],
  },
});
