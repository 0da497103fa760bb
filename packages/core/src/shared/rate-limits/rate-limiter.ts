import { z } from 'zod';
import type { Clock } from '../../ports/clock';
import type { Storage } from '../../ports/storage';
import { CommerceError } from '../errors/commerce-error';
import { addressKey } from './client-address';
import {
  createTokenBuckets,
  type RateLimitDecision,
  type RateLimitRule,
  type TokenBuckets,
  windowDecision,
} from './token-buckets';

/**
 * The rate limits (docs/contract.md#rate-limits), each `limit` requests per `window_seconds`:
 * - `secret_key`: per secret key;
 * - `publishable_key`: per publishable key AND client address — a publishable key is public and
 *   shared by every shopper, so a budget per key alone would let one client spend everybody's;
 * - `failed_auth`: failed authentications (401) per client address;
 * - `order_lookup`: guest order look-ups per client address;
 * - `sign_in`: *failed* customer-account attempts (a wrong password or unknown e-mail at sign-in,
 *   a wrong current password, an unknown or used reset token) per client address, and per e-mail
 *   address for sign-in and password change (docs/contract.md#sign-in): the same budget again,
 *   counted for the account whatever the client address, so that a guesser who spreads attempts on
 *   one account over many addresses is held to it too. Successes are not counted here;
 * - `password_reset`: password-reset requests per e-mail address (beyond it a request still
 *   answers 200 but creates no token and sends nothing).
 *
 * The first two are token buckets in each process's memory: they are consulted on every request,
 * and a database write per request would cost more than most requests themselves (a round trip
 * on PostgreSQL, a write lock on SQLite). With N processes behind a balancer a client may get up
 * to N times these budgets: set them per process. The others guard secrets against guessing,
 * are consulted rarely, and are fixed windows counted in the database, so N processes share one
 * budget and a guesser gains nothing by spreading requests over them.
 */
export interface RateLimitPolicy {
  secret_key: RateLimitRule;
  publishable_key: RateLimitRule;
  failed_auth: RateLimitRule;
  order_lookup: RateLimitRule;
  sign_in: RateLimitRule;
  password_reset: RateLimitRule;
}

export type SharedRateLimit = 'failed_auth' | 'order_lookup' | 'sign_in' | 'password_reset';

/**
 * The defaults: far above what a person in a browser or a merchant's back office sends, and above
 * what our test suites send from one address; low enough to cut floods and guessing short.
 */
export const DEFAULT_RATE_LIMITS: RateLimitPolicy = {
  secret_key: { limit: 10_000, window_seconds: 10 },
  publishable_key: { limit: 3_000, window_seconds: 10 },
  failed_auth: { limit: 50, window_seconds: 60 },
  order_lookup: { limit: 30, window_seconds: 60 },
  sign_in: { limit: 10, window_seconds: 60 },
  password_reset: { limit: 3, window_seconds: 3600 },
};

const ruleSchema = z
  .object({
    limit: z.number().int().min(1).max(1_000_000_000),
    window_seconds: z.number().int().min(1).max(86_400),
  })
  .strict();

/** Engine option `rateLimits`: `false` turns every limit off; a rule set to `false` turns that one off. */
export const rateLimitOptionsSchema = z.union([
  z.literal(false),
  z
    .object({
      secret_key: z.union([ruleSchema, z.literal(false)]),
      publishable_key: z.union([ruleSchema, z.literal(false)]),
      failed_auth: z.union([ruleSchema, z.literal(false)]),
      order_lookup: z.union([ruleSchema, z.literal(false)]),
      sign_in: z.union([ruleSchema, z.literal(false)]),
      password_reset: z.union([ruleSchema, z.literal(false)]),
    })
    .partial()
    .strict(),
]);

export type RateLimitOptions = z.infer<typeof rateLimitOptionsSchema>;

/**
 * What a shared window is counted for: a client address (compared in canonical form, an IPv6
 * address by its /64: {@link addressKey}), or an e-mail address (a customer account,
 * docs/contract.md#sign-in), compared case-insensitively, within a store and mode when `scope` is
 * given (a test-mode and a live-mode account are different accounts).
 */
export type RateLimitSubject =
  | { address: string }
  | { email: string; scope?: { store_id: string; mode: string } | undefined };

/** The counter key of a subject: the address key, or `email:` (`<store>/<mode>/`) and the trimmed, lower-cased e-mail. */
export function subjectKey(subject: RateLimitSubject): string {
  if ('address' in subject) return addressKey(subject.address);
  const scope = subject.scope === undefined ? '' : `${subject.scope.store_id}/${subject.scope.mode}/`;
  return `email:${scope}${subject.email.trim().toLowerCase()}`;
}

/** The 429 `rate_limited` of a refused request (`data.retry_after_seconds` for in-process callers). */
export function rateLimitedError(decision: RateLimitDecision): CommerceError {
  return new CommerceError(
    'rate_limited',
    `Too many requests: try again in ${decision.retry_after_seconds} s.`,
    {
      data: { retry_after_seconds: decision.retry_after_seconds },
    },
  );
}

/** Who made a request, as far as the limits care. */
export interface RateLimitCaller {
  key_id: string;
  key_type: 'secret' | 'publishable';
}

export interface RateLimiter {
  /** The rules in force (`null`: that limit is off). */
  readonly policy: { readonly [K in keyof RateLimitPolicy]: RateLimitRule | null };
  /**
   * Counts one request of an authenticated caller in its per-process bucket; `null` when no limit
   * applies (turned off, or a publishable key whose client address is unknown).
   */
  take(caller: RateLimitCaller, address: string | undefined): RateLimitDecision | null;
  /** Counts one request in a shared per-address window; `null` when off or the address is unknown. */
  count(limit: SharedRateLimit, address: string | undefined): Promise<RateLimitDecision | null>;
  /**
   * Counts one request in a shared window of `limit` for a subject (its counter is
   * `<limit> <subjectKey>`: an address, or `email:<e-mail>` with the same budget as the
   * per-address window); `null` when the limit is off or the address is empty.
   */
  countSubject(limit: SharedRateLimit, subject: RateLimitSubject): Promise<RateLimitDecision | null>;
  /**
   * Whether one more request would pass the subject's current window of `limit`, without counting
   * it (a refusal when `limit` requests are counted already); `null` when off or the address is
   * empty. Check, then count the outcome: concurrent checks may all pass before any is counted.
   */
  peekSubject(limit: SharedRateLimit, subject: RateLimitSubject): Promise<RateLimitDecision | null>;
}

/** How often (at most) a process deletes counters of past windows. */
const PRUNE_EVERY_MS = 10 * 60 * 1000;

export function createRateLimiter(
  storage: Storage,
  clock: Clock,
  options: RateLimitOptions | undefined,
): RateLimiter {
  const parsed = rateLimitOptionsSchema.safeParse(options ?? {});
  if (!parsed.success) {
    throw new TypeError(
      `Invalid rateLimits option: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  const given = parsed.data;
  const rule = (name: keyof RateLimitPolicy): RateLimitRule | null => {
    if (given === false) return null;
    const value = given[name];
    return value === false ? null : (value ?? DEFAULT_RATE_LIMITS[name]);
  };
  const policy = {
    secret_key: rule('secret_key'),
    publishable_key: rule('publishable_key'),
    failed_auth: rule('failed_auth'),
    order_lookup: rule('order_lookup'),
    sign_in: rule('sign_in'),
    password_reset: rule('password_reset'),
  };
  const secretBuckets = policy.secret_key && createTokenBuckets(policy.secret_key);
  const publishableBuckets = policy.publishable_key && createTokenBuckets(policy.publishable_key);
  const longestWindowMs =
    Math.max(
      policy.failed_auth?.window_seconds ?? 0,
      policy.order_lookup?.window_seconds ?? 0,
      policy.sign_in?.window_seconds ?? 0,
      policy.password_reset?.window_seconds ?? 0,
    ) * 1000;
  let prunedAt = clock.now();

  const takeFrom = (buckets: TokenBuckets | null, key: string) =>
    buckets === null ? null : buckets.take(key, clock.now());

  /** One request in the current fixed window of `limit` for `key`, shared in the database. */
  const hit = async (limit: SharedRateLimit, key: string): Promise<RateLimitDecision | null> => {
    const current = policy[limit];
    if (current === null) return null;
    const now = clock.now();
    const windowMs = current.window_seconds * 1000;
    const windowStart = Math.floor(now / windowMs) * windowMs;
    const prune = now - prunedAt >= PRUNE_EVERY_MS;
    if (prune) prunedAt = now;
    const hits = await storage.transaction(async (tx) => {
      if (prune) await tx.rateLimits.prune(now - 2 * longestWindowMs);
      return tx.rateLimits.hit(`${limit} ${key}`, windowStart);
    });
    return windowDecision(current, hits, windowStart + windowMs, now);
  };

  /** Whether one more request would pass the current window of `limit` for `key`; counts nothing. */
  const peek = async (limit: SharedRateLimit, key: string): Promise<RateLimitDecision | null> => {
    const current = policy[limit];
    if (current === null) return null;
    const now = clock.now();
    const windowMs = current.window_seconds * 1000;
    const windowStart = Math.floor(now / windowMs) * windowMs;
    const hits = await storage.read((repos) => repos.rateLimits.peek(`${limit} ${key}`, windowStart));
    return windowDecision(current, hits + 1, windowStart + windowMs, now);
  };

  const emptyAddress = (subject: RateLimitSubject) => 'address' in subject && subject.address.trim() === '';

  return {
    policy,
    take(caller, address) {
      if (caller.key_type === 'secret') return takeFrom(secretBuckets, caller.key_id);
      if (address === undefined || address === '') return null;
      return takeFrom(publishableBuckets, `${caller.key_id} ${addressKey(address)}`);
    },
    async count(limit, address) {
      if (address === undefined || address === '') return null;
      return hit(limit, addressKey(address));
    },
    async countSubject(limit, subject) {
      return emptyAddress(subject) ? null : hit(limit, subjectKey(subject));
    },
    async peekSubject(limit, subject) {
      return emptyAddress(subject) ? null : peek(limit, subjectKey(subject));
    },
  };
}

export type { RateLimitDecision, RateLimitRule } from './token-buckets';
