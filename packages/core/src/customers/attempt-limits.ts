import type { Scope } from '../ports/storage';
import { CommerceError } from '../shared/errors/commerce-error';
import {
  type RateLimitDecision,
  type RateLimiter,
  type RateLimitSubject,
  rateLimitedError,
} from '../shared/rate-limits/rate-limiter';

/**
 * Where a customer-account attempt comes from, as the HTTP API tells the engine
 * (docs/contract.md#rate-limits): the client's address — the connection's, or the shopper's that a
 * secret-key caller named in `Commerce-Buyer-Ip` — and who wants to see the budgets consulted (the
 * `RateLimit-*` headers). Calls without an origin (in process) are not limited.
 */
export interface AttemptOrigin {
  /** The client address; undefined when unknown (then only the per-e-mail budgets apply). */
  address?: string | undefined;
  /** Told the budget behind a refusal or a counted failure (the tightest, as the headers show it). */
  observe?: ((decision: RateLimitDecision) => void) | undefined;
}

/** The tightest of several decisions: a refusal first (the longest wait), else the fewest left. */
function tightest(decisions: (RateLimitDecision | null)[]): RateLimitDecision | null {
  let result: RateLimitDecision | null = null;
  for (const decision of decisions) {
    if (decision === null) continue;
    if (
      result === null ||
      (!decision.allowed && (result.allowed || decision.retry_after_seconds > result.retry_after_seconds)) ||
      (decision.allowed && result.allowed && decision.remaining < result.remaining)
    ) {
      result = decision;
    }
  }
  return result;
}

/**
 * The business rules of the customer-account limits (docs/contract.md#sign-in): only *failed*
 * attempts count, in the `sign_in` windows of the client address and of the account's e-mail;
 * successful sign-ins and registrations count only toward the API key's ordinary budget, so a
 * storefront server signing all its shoppers in from one address is never throttled by their
 * successes. An attempt arriving when a failure budget is spent is refused (429 `rate_limited`)
 * before any password is checked. Password-reset requests have their own per-e-mail budget
 * (`password_reset`), and neither reset route is ever refused by an e-mail's failure budget: guesses
 * from anywhere can slow an account's sign-in but never lock its owner out.
 *
 * Failures are counted after the outcome is known, each with one atomic upsert shared by every
 * process: concurrent attempts that all pass the check before any failure is counted each get
 * their answer, so a window can end with somewhat more failures than its limit (at most the
 * attempts in flight when it filled); every later attempt is refused until the window ends.
 */
export function createAttemptLimits(limiter: RateLimiter) {
  /** The windows an attempt is counted in: its address's, and the account's e-mail's if given. */
  function subjectsOf(origin: AttemptOrigin, scope: Scope, email?: string): RateLimitSubject[] {
    const subjects: RateLimitSubject[] = [];
    if (origin.address !== undefined && origin.address.trim() !== '')
      subjects.push({ address: origin.address });
    if (email !== undefined) subjects.push({ email, scope });
    return subjects;
  }

  /** Refuses with 429 `rate_limited` when any subject's failure budget is spent; counts nothing. */
  async function admit(origin: AttemptOrigin, subjects: RateLimitSubject[]): Promise<void> {
    const decision = tightest(
      await Promise.all(subjects.map((subject) => limiter.peekSubject('sign_in', subject))),
    );
    if (decision === null || decision.allowed) return;
    origin.observe?.(decision);
    throw rateLimitedError(decision);
  }

  /** Counts one failure in each subject's window. */
  async function failed(origin: AttemptOrigin, subjects: RateLimitSubject[]): Promise<void> {
    const decisions: (RateLimitDecision | null)[] = [];
    for (const subject of subjects) decisions.push(await limiter.countSubject('sign_in', subject));
    const decision = tightest(decisions);
    if (decision !== null) origin.observe?.(decision);
  }

  return {
    /**
     * Runs a password-checking attempt under the failure budgets: refused first when a budget of
     * the address or of `email` (the account's) is spent; `isFailure` tells which errors count.
     * Without an origin, just runs it.
     */
    async attempt<T>(
      origin: AttemptOrigin | undefined,
      scope: Scope,
      email: string | undefined,
      isFailure: (error: CommerceError) => boolean,
      run: () => Promise<T>,
    ): Promise<T> {
      if (origin === undefined) return run();
      const subjects = subjectsOf(origin, scope, email);
      await admit(origin, subjects);
      try {
        return await run();
      } catch (error) {
        if (CommerceError.is(error) && isFailure(error)) await failed(origin, subjects);
        throw error;
      }
    },

    /**
     * Counts a password-reset request for `email` (whether or not it belongs to anyone); false
     * past its `password_reset` budget: then nothing is to be created or sent. Always true without
     * an origin.
     */
    async resetRequestAllowed(
      origin: AttemptOrigin | undefined,
      scope: Scope,
      email: string,
    ): Promise<boolean> {
      if (origin === undefined) return true;
      const decision = await limiter.countSubject('password_reset', { email, scope });
      return decision === null || decision.allowed;
    },
  };
}

export type AttemptLimits = ReturnType<typeof createAttemptLimits>;
