import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import {
  API_LOG_MODES,
  type ApiLogMode,
  DEFAULT_API_LOG_MODE,
  type RateLimitOptions,
  type RateLimitPolicy,
  type RateLimitRule,
} from '@cartwright/core';

/** The log levels of `LOG_LEVEL` (pino's). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The server's configuration, read from the environment exactly as docs/contract.md#running says. */
export interface ServerConfig {
  port: number;
  host: string;
  /**
   * `postgres://…`/`postgresql://…`, `mysql://…`/`mariadb://…`, `:memory:`, or an absolute SQLite
   * file path. A relative `DATABASE_URL` is resolved against the directory the command was typed
   * in (pnpm's `INIT_CWD`, else the working directory); without `DATABASE_URL` it is
   * `.data/commerce.db` in the project's root ({@link projectRoot}), wherever the command is typed.
   */
  databaseUrl: string;
  /**
   * `DATABASE_POOL_SIZE` (default 10): connections of the PostgreSQL or MariaDB pool of this
   * process (ignored for SQLite). Measured effects: docs/benchmarks.md.
   */
  databasePoolSize: number;
  /** `LOG_LEVEL` (default `info`). */
  logLevel: LogLevel;
  apiKeys: string[];
  webhookRetryDelays: number[];
  allowPrivateWebhooks: boolean;
  seed: 'demo' | null;
  stripeSecretKey: string | null;
  stripeApiBase: string | null;
  stripeWebhookSecret: string | null;
  /**
   * Reconciliation on a schedule in `serve` and `worker`: the pause between runs in ms,
   * 0 = off (`COMMERCE_RECONCILE_INTERVAL_MS`, default 30000).
   */
  reconcileIntervalMs: number;
  /** Only attempts and refunds at least this old are settled (`COMMERCE_RECONCILE_AFTER_MS`, default 120000). */
  reconcileAfterMs: number;
  /**
   * How long an order waits for a payment the storefront confirms in the browser (a Stripe
   * checkout without `payment_method_id`) before reconciliation cancels it
   * (`COMMERCE_PAYMENT_TIMEOUT_MINUTES`, whole minutes from 1 to 10080, default 30).
   */
  paymentTimeoutMinutes: number;
  /**
   * Rate limits (docs/contract.md#rate-limits): `false` with `COMMERCE_RATE_LIMITS=off`; else the rules given by
   * `COMMERCE_RATE_LIMIT_<RULE>` (`<limit>/<window>` such as `3000/10s`, or `off`) over the defaults.
   */
  rateLimits: RateLimitOptions;
  /** Browser origins on storefront routes (`COMMERCE_CORS_ORIGINS`, comma-separated; default `*`). */
  corsOrigins: '*' | string[];
  /** Browser origins on admin routes (`COMMERCE_CORS_ADMIN_ORIGINS`; default none). */
  corsAdminOrigins: '*' | string[];
  /** Proxies in front that append to `X-Forwarded-For` (`COMMERCE_TRUST_PROXY`: a number, `true` or `false`). */
  trustProxy: boolean | number;
  /**
   * At most this many password hashes at once in this process, beyond a short queue 503
   * `service_unavailable` (`COMMERCE_PASSWORD_HASH_CONCURRENCY`, 1–1024; unset = the engine's
   * default, twice the CPU cores; docs/security.md#passwords).
   */
  passwordHashConcurrency: number | undefined;
  /**
   * API logs (decisions §23, `COMMERCE_API_LOGS`): `writes` (default: every non-GET request and
   * every 4xx/5xx), `all` or `off`.
   */
  apiLogs: ApiLogMode;
}

export class ConfigError extends Error {}

const DEFAULT_RETRY_DELAYS = [0, 300, 1800, 7200, 86400];
const DEFAULT_RECONCILE_INTERVAL_MS = 30_000;
const DEFAULT_RECONCILE_AFTER_MS = 120_000;

const DEFAULT_PAYMENT_TIMEOUT_MINUTES = 30;
/** A week: longer than any storefront payment page stays open (and than Stripe keeps a 3-D Secure session). */
const MAX_PAYMENT_TIMEOUT_MINUTES = 7 * 24 * 60;

/** `COMMERCE_PAYMENT_TIMEOUT_MINUTES`: whole minutes from 1 to a week, or the default when unset. */
function paymentTimeoutMinutes(raw: string | undefined): number {
  const value = raw?.trim();
  if (value === undefined || value === '') return DEFAULT_PAYMENT_TIMEOUT_MINUTES;
  const minutes = Number(value);
  if (!/^\d+$/.test(value) || minutes < 1 || minutes > MAX_PAYMENT_TIMEOUT_MINUTES) {
    throw new ConfigError(
      `COMMERCE_PAYMENT_TIMEOUT_MINUTES must be a whole number of minutes from 1 to ${MAX_PAYMENT_TIMEOUT_MINUTES}, got '${raw}'`,
    );
  }
  return minutes;
}

function logLevel(raw: string | undefined): LogLevel {
  const value = raw?.trim().toLowerCase() || 'info';
  if ((LOG_LEVELS as readonly string[]).includes(value)) return value as LogLevel;
  throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got '${raw}'`);
}

/** A non-negative whole number of milliseconds from the environment, or the default when unset. */
function millis(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0)
    throw new ConfigError(`${name} must be a whole number of milliseconds ≥ 0, got '${raw}'`);
  return value;
}

const POSTGRES_URL = /^postgres(ql)?:\/\//i;
const MARIADB_URL = /^(mysql|mariadb):\/\//i;
/** A URL scheme (`mysql://`, `postgress://`, `sqlite:`…): two letters or more, so `C:\\x` stays a path. */
const ANY_SCHEME = /^([a-z][a-z0-9+.-]+):/i;

/** The default `DATABASE_URL`: a SQLite file in the project's root ({@link projectRoot}). */
export const DEFAULT_DATABASE = '.data/commerce.db';

/**
 * The root of the project a command runs in: the nearest folder, from `dir` upwards, that holds a
 * workspace (`pnpm-workspace.yaml`, or a package.json with `workspaces`) — so in this repository
 * the repository root, from any of its subfolders —, else the nearest folder holding a
 * package.json, else `dir` itself.
 */
export function projectRoot(dir: string): string {
  let nearestPackage: string | null = null;
  for (let current = resolve(dir); ; ) {
    if (existsSync(join(current, 'pnpm-workspace.yaml'))) return current;
    const manifest = join(current, 'package.json');
    if (existsSync(manifest)) {
      nearestPackage ??= current;
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { workspaces?: unknown }).workspaces)
          return current;
      } catch {
        // Not JSON: not a workspace root, and still a package folder.
      }
    }
    const parent = dirname(current);
    if (parent === current) return nearestPackage ?? resolve(dir);
    current = parent;
  }
}

/** A database server's URL: parseable and, for MariaDB, naming its database. Messages never repeat it. */
function serverUrl(value: string, kind: 'postgres' | 'mariadb'): string {
  const scheme = value.slice(0, value.indexOf(':')).toLowerCase();
  const example = `${scheme}://user:password@host:${kind === 'postgres' ? 5432 : 3306}/shop`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(
      `DATABASE_URL is not a valid ${scheme}:// URL such as ${example} (check its escaping: a password with @ or / must be percent-encoded)`,
    );
  }
  if (kind === 'mariadb' && url.pathname.replace(/^\//, '') === '') {
    throw new ConfigError(
      `DATABASE_URL names no database: expected ${example} (MariaDB has no default database)`,
    );
  }
  return value;
}

/**
 * `DATABASE_URL` (docs/contract.md#running): `postgres://…` → PostgreSQL; `mysql://…` or
 * `mariadb://…` → MariaDB; `:memory:` → in-memory SQLite; a path → a SQLite file, made absolute
 * against `baseDir` (the directory the command was typed in). Unset: {@link DEFAULT_DATABASE} in
 * the project's root found from `baseDir`. Any other scheme (`sqlite:`, the typo `postgress://`)
 * is refused instead of becoming a SQLite file named after the URL; the message never repeats the
 * URL (it may hold a password).
 */
export function resolveDatabaseUrl(raw: string | undefined, baseDir: string): string {
  const value = raw?.trim() ?? '';
  if (value === '') return join(projectRoot(baseDir), DEFAULT_DATABASE);
  if (POSTGRES_URL.test(value)) return serverUrl(value, 'postgres');
  if (MARIADB_URL.test(value)) return serverUrl(value, 'mariadb');
  if (value === ':memory:') return value;
  const scheme = ANY_SCHEME.exec(value)?.[1];
  if (scheme !== undefined) {
    throw new ConfigError(
      `DATABASE_URL has the scheme '${scheme}:', which Cartwright does not support: use postgres://… (PostgreSQL), mysql://… or mariadb://… (MariaDB), a file path (SQLite) or :memory:`,
    );
  }
  return isAbsolute(value) ? value : resolve(baseDir, value);
}

/** The rules and the environment variable of each (`COMMERCE_RATE_LIMIT_SECRET_KEY`, …). */
const RATE_LIMIT_RULES: readonly (keyof RateLimitPolicy)[] = [
  'secret_key',
  'publishable_key',
  'failed_auth',
  'order_lookup',
  'sign_in',
];
const WINDOW_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600 };

/** `COMMERCE_RATE_LIMITS` and `COMMERCE_RATE_LIMIT_<RULE>`. */
function rateLimits(env: NodeJS.ProcessEnv): RateLimitOptions {
  const all = env.COMMERCE_RATE_LIMITS?.trim().toLowerCase() ?? '';
  if (all === 'off') return false;
  if (all !== '' && all !== 'on')
    throw new ConfigError(`COMMERCE_RATE_LIMITS must be 'on' or 'off', got '${env.COMMERCE_RATE_LIMITS}'`);
  const options: { [K in keyof RateLimitPolicy]?: RateLimitRule | false } = {};
  for (const rule of RATE_LIMIT_RULES) {
    const name = `COMMERCE_RATE_LIMIT_${rule.toUpperCase()}`;
    const raw = env[name]?.trim().toLowerCase();
    if (raw === undefined || raw === '') continue;
    if (raw === 'off') {
      options[rule] = false;
      continue;
    }
    const match = /^(\d+)\s*\/\s*(\d+)\s*([smh]?)$/.exec(raw);
    const limit = Number(match?.[1]);
    const window = Number(match?.[2]) * (WINDOW_UNITS[match?.[3] || 's'] ?? 1);
    if (match === null || limit < 1 || limit > 1_000_000_000 || window < 1 || window > 86_400) {
      throw new ConfigError(
        `${name} must be <requests>/<window> (e.g. 3000/10s, 30/1m; window 1s–24h) or 'off', got '${env[name]}'`,
      );
    }
    options[rule] = { limit, window_seconds: window };
  }
  return options;
}

/** A comma-separated list of origins, or `*`. */
function origins(env: NodeJS.ProcessEnv, name: string, fallback: '*' | string[]): '*' | string[] {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const list = raw
    .split(',')
    .map((origin) => origin.trim().replace(/\/+$/, ''))
    .filter((origin) => origin !== '');
  if (list.includes('*')) return '*';
  for (const origin of list) {
    if (!/^https?:\/\/[^/\s]+$/i.test(origin)) {
      throw new ConfigError(
        `${name} must be * or comma-separated origins such as https://shop.example, got '${origin}'`,
      );
    }
  }
  return list;
}

function trustProxy(raw: string | undefined): boolean | number {
  const value = raw?.trim().toLowerCase() ?? '';
  if (value === '' || value === 'false' || value === '0') return false;
  if (value === 'true') return true;
  const hops = Number(value);
  if (Number.isInteger(hops) && hops > 0 && hops < 100) return hops;
  throw new ConfigError(`COMMERCE_TRUST_PROXY must be true, false or a number of proxies, got '${raw}'`);
}

/** `COMMERCE_PASSWORD_HASH_CONCURRENCY`: a whole number from 1 to 1024, or undefined when unset. */
function passwordHashConcurrency(raw: string | undefined): number | undefined {
  const value = raw?.trim();
  if (value === undefined || value === '') return undefined;
  const count = Number(value);
  if (!/^\d+$/.test(value) || count < 1 || count > 1024) {
    throw new ConfigError(
      `COMMERCE_PASSWORD_HASH_CONCURRENCY must be a whole number from 1 to 1024, got '${raw}'`,
    );
  }
  return count;
}

/** `COMMERCE_API_LOGS`: `writes`, `all` or `off` (any case); unset or empty = `writes`. */
function apiLogMode(raw: string | undefined): ApiLogMode {
  const value = raw?.trim().toLowerCase() ?? '';
  if (value === '') return DEFAULT_API_LOG_MODE;
  if ((API_LOG_MODES as readonly string[]).includes(value)) return value as ApiLogMode;
  throw new ConfigError(`COMMERCE_API_LOGS must be 'writes', 'all' or 'off', got '${raw}'`);
}

function poolSize(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return 10;
  const size = Number(raw.trim());
  if (!Number.isInteger(size) || size < 1 || size > 1000) {
    throw new ConfigError(`DATABASE_POOL_SIZE must be a whole number from 1 to 1000, got '${raw}'`);
  }
  return size;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = env.PORT === undefined || env.PORT === '' ? 3000 : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ConfigError(`PORT must be a port number, got '${env.PORT}'`);
  const delays = env.COMMERCE_WEBHOOK_RETRY_DELAYS
    ? env.COMMERCE_WEBHOOK_RETRY_DELAYS.split(',').map((part) => Number(part.trim()))
    : DEFAULT_RETRY_DELAYS;
  if (delays.length !== 5 || delays.some((d) => !Number.isFinite(d) || d < 0)) {
    throw new ConfigError(
      'COMMERCE_WEBHOOK_RETRY_DELAYS must be five comma-separated non-negative numbers of seconds',
    );
  }
  const seed = env.COMMERCE_SEED ? env.COMMERCE_SEED.trim() : '';
  if (seed !== '' && seed !== 'demo') throw new ConfigError(`COMMERCE_SEED must be 'demo', got '${seed}'`);
  return {
    port,
    host: env.HOST || '127.0.0.1',
    databaseUrl: resolveDatabaseUrl(env.DATABASE_URL, env.INIT_CWD || process.cwd()),
    databasePoolSize: poolSize(env.DATABASE_POOL_SIZE),
    logLevel: logLevel(env.LOG_LEVEL),
    apiKeys: (env.COMMERCE_API_KEYS ?? '')
      .split(',')
      .map((key) => key.trim())
      .filter((key) => key.length > 0),
    webhookRetryDelays: delays,
    allowPrivateWebhooks: env.COMMERCE_ALLOW_PRIVATE_WEBHOOKS === '1',
    seed: seed === 'demo' ? 'demo' : null,
    stripeSecretKey: env.STRIPE_SECRET_KEY || null,
    stripeApiBase: env.STRIPE_API_BASE || null,
    stripeWebhookSecret: env.STRIPE_WEBHOOK_SECRET || null,
    reconcileIntervalMs: millis(env, 'COMMERCE_RECONCILE_INTERVAL_MS', DEFAULT_RECONCILE_INTERVAL_MS),
    reconcileAfterMs: millis(env, 'COMMERCE_RECONCILE_AFTER_MS', DEFAULT_RECONCILE_AFTER_MS),
    paymentTimeoutMinutes: paymentTimeoutMinutes(env.COMMERCE_PAYMENT_TIMEOUT_MINUTES),
    rateLimits: rateLimits(env),
    corsOrigins: origins(env, 'COMMERCE_CORS_ORIGINS', '*'),
    corsAdminOrigins: origins(env, 'COMMERCE_CORS_ADMIN_ORIGINS', []),
    trustProxy: trustProxy(env.COMMERCE_TRUST_PROXY),
    passwordHashConcurrency: passwordHashConcurrency(env.COMMERCE_PASSWORD_HASH_CONCURRENCY),
    apiLogs: apiLogMode(env.COMMERCE_API_LOGS),
  };
}
