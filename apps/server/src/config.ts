import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const emptyAsUndefined = (value: unknown) => (value === '' ? undefined : value);
const optionalUrl = (protocols: string[]) =>
  z.preprocess(
    emptyAsUndefined,
    z
      .url()
      .refine((value) => protocols.some((p) => value.startsWith(`${p}:`)), {
        message: `must start with ${protocols.map((p) => `${p}://`).join(' or ')}`,
      })
      .optional(),
  );

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  APP_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
  DATA_DIR: z.preprocess(emptyAsUndefined, z.string().default('./data')),
  DATABASE_URL: optionalUrl(['postgres', 'postgresql']),
  AUTH_SECRET: z.preprocess(
    emptyAsUndefined,
    z.string().min(32, 'must be at least 32 characters').optional(),
  ),
  SMTP_URL: optionalUrl(['smtp', 'smtps']),
  MAIL_FROM: z.preprocess(
    emptyAsUndefined,
    z.string().min(3).default('Pulsecheck <no-reply@pulsecheck.local>'),
  ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  RATE_LIMIT_MULTIPLIER: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(1000).default(1)),
  TRUST_PROXY: z
    .preprocess(emptyAsUndefined, z.enum(['true', 'false']).default('false'))
    .transform((value) => value === 'true'),
});

export type Config = {
  env: 'development' | 'production' | 'test';
  port: number;
  appUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  authSecret: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  trustProxy: boolean;
  rateLimitMultiplier: number;
};

export class ConfigError extends Error {}

/** Reads the secret kept in DATA_DIR, creating it on first start (embedded mode outside production only). */
function persistedSecret(dataDir: string): string {
  const file = path.join(dataDir, 'auth-secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(32).toString('base64url');
    writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  let authSecret = e.AUTH_SECRET;
  if (!authSecret) {
    if (e.NODE_ENV === 'production') {
      throw new ConfigError(
        'Invalid configuration:\n  AUTH_SECRET: required in production (at least 32 characters)',
      );
    }
    authSecret = persistedSecret(dataDir);
  }
  const appUrl = (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    appUrl,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    authSecret,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    rateLimitMultiplier: e.RATE_LIMIT_MULTIPLIER,
  };
}

/**
 * Settings of the test harness only (never read by the running product). `overrides` are a test project's own
 * variables, which Vitest applies to its workers but not to the global set-up.
 */
export function loadTestSettings(overrides: Record<string, string | undefined> = {}) {
  const env = { ...process.env, ...overrides };
  return {
    databaseUrl: env.TEST_DATABASE_URL || undefined,
    kind: env.TEST_DB_KIND === 'postgres' ? ('postgres' as const) : ('pglite' as const),
    templateDump: env.TEST_PGLITE_TEMPLATE || undefined,
    templateDatabase: env.TEST_PG_TEMPLATE || undefined,
  };
}
