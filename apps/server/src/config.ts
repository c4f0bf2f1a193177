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

/** A DNS server as `host:port`: an IPv4 address, or an IPv6 address in brackets, and a port. */
const DNS_SERVER = /^(\d{1,3}(\.\d{1,3}){3}|\[[\da-fA-F:.]+\]):\d{1,5}$/;

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^[\w.:%-]+$/, 'must be an address such as 127.0.0.1, 0.0.0.0 or ::')
      .default('127.0.0.1'),
  ),
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
  MAIL_DISABLED: z.preprocess(
    emptyAsUndefined,
    z
      .enum(['true', 'false'], { error: 'must be true or false' })
      .default('false')
      .transform((value) => value === 'true'),
  ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  RATE_LIMIT_MULTIPLIER: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(1000).default(1)),
  TRUST_PROXY: z
    .preprocess(
      emptyAsUndefined,
      z
        .string()
        .default('false')
        .refine((value) => /^(true|false|\d{1,2})$/.test(value), {
          message: 'must be false, true (one proxy) or the number of proxies in front of the server',
        }),
    )
    .transform((value) => (value === 'true' ? 1 : value === 'false' ? 0 : Number(value))),
  BACKUP_INTERVAL_HOURS: z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number()
      .min(0)
      .max(24 * 7)
      .default(6),
  ),
  BACKUP_KEEP: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(1000).default(8)),
  MAIL_RETENTION_DAYS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(3650).default(30)),
  METRICS_TOKEN: z.preprocess(
    emptyAsUndefined,
    z.string().min(16, 'must be at least 16 characters').optional(),
  ),
  DNS_SERVERS: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .optional()
      .transform((value) => (value ? value.split(',').map((server) => server.trim()) : []))
      .refine((servers) => servers.every((server) => DNS_SERVER.test(server)), {
        message: 'must be comma-separated host:port entries, e.g. 1.1.1.1:53,[2606:4700::1111]:53',
      }),
  ),
  SSO_ALLOW_LOOPBACK_ISSUER: z.preprocess(
    emptyAsUndefined,
    z
      .enum(['true', 'false'], { error: 'must be true or false' })
      .default('false')
      .transform((value) => value === 'true'),
  ),
  WEBHOOKS_ALLOW_LOOPBACK: z.preprocess(
    emptyAsUndefined,
    z
      .enum(['true', 'false'], { error: 'must be true or false' })
      .default('false')
      .transform((value) => value === 'true'),
  ),
  DATABASE_STATEMENT_TIMEOUT_MS: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int().min(0).max(600_000).default(5_000),
  ),
});

export type Config = {
  env: 'development' | 'production' | 'test';
  port: number;
  /** The address to listen on: 127.0.0.1 by default, 0.0.0.0 (or ::) to accept other machines. */
  host: string;
  appUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  authSecret: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  /**
   * MAIL_DISABLED=true: no e-mail is sent at all. Every e-mail is recorded as failed with the reason, and the
   * screens say that no e-mail was sent. The only way to run production without SMTP_URL.
   */
  mailDisabled: boolean;
  /** Sent and failed e-mails are deleted from the outbox this many days later (mail/retention.ts). */
  mailRetentionDays: number;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /**
   * How many reverse proxies stand in front of the server (0: none). The client address is then the entry of
   * X-Forwarded-For that the furthest of them appended, never one the client wrote itself.
   */
  trustProxyHops: number;
  rateLimitMultiplier: number;
  /** The embedded database's automatic snapshots into DATA_DIR/backups (0: off), and how many are kept. */
  backupIntervalMs: number;
  backupKeep: number;
  /** Lets a Prometheus server read /metrics from another machine (bearer token); loopback needs none. */
  metricsToken: string | undefined;
  /** DNS servers (`host:port`) for domain verification and outbound requests (lib/dns.ts); empty: the system's. */
  dnsServers: string[];
  /**
   * SSO_ALLOW_LOOPBACK_ISSUER=true: an SSO issuer (and any outbound request, lib/outbound.ts) may be on this
   * machine's loopback, for tests and local trials; refused in production.
   */
  allowLoopbackIssuer: boolean;
  /**
   * WEBHOOKS_ALLOW_LOOPBACK=true: a webhook may be http:// to this machine's loopback (and its deliveries go there
   * through lib/outbound.ts), for tests and local trials; refused in production.
   */
  allowLoopbackWebhooks: boolean;
  /** PostgreSQL only: the longest a statement of the server may run (0: no limit); decision 0017. */
  statementTimeoutMs: number;
};

export class ConfigError extends Error {}

/** Reads the secret kept in DATA_DIR, creating it on first start (embedded mode outside production only). */
function persistedSecret(dataDir: string): string {
  const file = path.join(dataDir, 'auth-secret');
  let secret: string;
  try {
    secret = readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    secret = randomBytes(32).toString('base64url');
    writeFileSync(file, secret, { mode: 0o600 });
  }
  if (secret.length < 32) {
    throw new ConfigError(
      `Invalid configuration:\n  AUTH_SECRET: the secret kept in ${file} is ${secret.length} characters; it must be at least 32 (set AUTH_SECRET, or delete the file to generate a new one, which signs everyone out)`,
    );
  }
  return secret;
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
  // In production an e-mail without SMTP would be recorded as sent though none left: refuse, unless e-mail is
  // switched off on purpose (then every screen says that no e-mail was sent).
  if (e.NODE_ENV === 'production' && !e.SMTP_URL && !e.MAIL_DISABLED) {
    throw new ConfigError(
      'Invalid configuration:\n  SMTP_URL: required in production to send e-mail (smtp://user:password@host:port or smtps://…); to run without e-mail, set MAIL_DISABLED=true (no sign-up verification, password reset or invitation e-mail is then sent, and the screens say so)',
    );
  }
  if (e.NODE_ENV === 'production' && e.SSO_ALLOW_LOOPBACK_ISSUER) {
    throw new ConfigError(
      'Invalid configuration:\n  SSO_ALLOW_LOOPBACK_ISSUER: must not be true in production (it lets the server call identity providers on its own loopback; it is for tests and local trials)',
    );
  }
  if (e.NODE_ENV === 'production' && e.WEBHOOKS_ALLOW_LOOPBACK) {
    throw new ConfigError(
      'Invalid configuration:\n  WEBHOOKS_ALLOW_LOOPBACK: must not be true in production (it lets the server send webhooks to its own loopback over http; it is for tests and local trials)',
    );
  }
  const appUrl = (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    appUrl,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    authSecret,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    mailDisabled: e.MAIL_DISABLED,
    mailRetentionDays: e.MAIL_RETENTION_DAYS,
    logLevel: e.LOG_LEVEL,
    trustProxyHops: e.TRUST_PROXY,
    rateLimitMultiplier: e.RATE_LIMIT_MULTIPLIER,
    backupIntervalMs: e.BACKUP_INTERVAL_HOURS * 3600 * 1000,
    backupKeep: e.BACKUP_KEEP,
    metricsToken: e.METRICS_TOKEN,
    dnsServers: e.DNS_SERVERS,
    allowLoopbackIssuer: e.SSO_ALLOW_LOOPBACK_ISSUER,
    allowLoopbackWebhooks: e.WEBHOOKS_ALLOW_LOOPBACK,
    statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
  };
}

/**
 * What the operations commands (`npm run backup`, `restore`, `db:move`) need: where the database is, and the
 * folder the command was run from (npm runs scripts from the project root; paths given on the command line are
 * the operator's, relative to where they typed it).
 */
export function loadDatabaseSettings(env: NodeJS.ProcessEnv = process.env) {
  const parsed = envSchema.pick({ DATA_DIR: true, DATABASE_URL: true }).safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return {
    dataDir: path.resolve(parsed.data.DATA_DIR),
    databaseUrl: parsed.data.DATABASE_URL,
    invokedFrom: env.INIT_CWD || process.cwd(),
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
    /** Set by CI: a test that cannot run there fails instead of skipping. */
    ci: Boolean(env.CI),
  };
}
