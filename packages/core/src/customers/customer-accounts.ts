import type { CustomerRecord, PasswordResetRecord, Repositories, Scope } from '../ports/storage';
import type { ServiceContext } from '../shared/context';
import { CommerceError, errors } from '../shared/errors';
import { read, type Work, write } from '../shared/unit-of-work';
import { iso } from '../shared/wire-format';
import { type AttemptOrigin, createAttemptLimits } from './attempt-limits';
import { newCustomerToken, storeCustomerToken } from './customer-tokens';
import { customerView, requireCustomer } from './customer-views';
import type {
  CustomerPasswordChange,
  CustomerRegister,
  CustomerSignIn,
  PasswordResetConfirm,
  PasswordResetRequest,
} from './schemas';
import type { CustomerWire } from './wire';

/** A signed-in customer: what register, sign-in and a reset confirmation answer (docs/contract.md#customer-accounts). */
export interface CustomerSession {
  customer: CustomerWire;
  /** A customer token (`X-Customer-Token`), shown once. */
  token: string;
  expires_at: string;
}

/** Who asks for a password change: the customer and the token they presented (it stays valid). */
export interface SignedInCustomer {
  customer_id: string;
  token_id: string;
}

/** A reset token is valid for one hour (docs/contract.md#password-reset). */
export const PASSWORD_RESET_TTL_MS = 60 * 60 * 1000;
/** Random bytes per reset token: 256 bits. */
const RESET_TOKEN_BYTES = 32;
const RESET_TOKEN_PATTERN = /^prt_[A-Za-z0-9_-]{16,200}$/;

const SUCCESS = { success: true } as const;

const invalidCredentials = () => new CommerceError('invalid_credentials', 'Invalid e-mail or password');
const resetTokenInvalid = () =>
  new CommerceError('reset_token_invalid', 'This password reset token is unknown, used or expired', {
    param: 'token',
  });
const disabled = () => new CommerceError('customer_disabled', 'This customer account is disabled');

/**
 * A new password may not be the account's e-mail (docs/contract.md#passwords), compared
 * case-insensitively: for the requests whose body does not carry the e-mail (password change, reset
 * confirmation); the register and create schemas check it themselves.
 */
function refuseEmailAsPassword(email: string, password: string, param: string) {
  if (password.toLowerCase() === email.toLowerCase()) {
    throw new CommerceError('parameter_invalid', 'The password may not be the e-mail address', { param });
  }
}

/**
 * Customer accounts (docs/contract.md#customer-accounts): sign-up, sign-in and sign-out, password change and reset.
 * Passwords are hashed with scrypt ({@link ServiceContext.passwords}) outside any transaction; the
 * transaction then checks that nothing changed in between (a compare on the stored hash).
 *
 * - No account enumeration: an unknown e-mail costs one full hash verification, like a wrong
 *   password, and answers the same 401 `invalid_credentials`; a disabled customer is told so only
 *   after the right password; a reset request always answers `{ success: true }`.
 * - Token hygiene: sign-out deletes its token; a password change deletes every other token of the
 *   customer and a reset every token, in the same transaction. Tokens are read from the database
 *   on every request, so this holds at once in every process.
 * - A reset token (`prt_…`, 256 random bits) is stored only as its SHA-256, valid one hour,
 *   single-use (claimed atomically), and a newer request deletes older ones. It reaches the host
 *   through the secret event `customer.password_reset_requested`.
 *
 * Limits (docs/contract.md#sign-in, {@link createAttemptLimits}): a call given an
 * {@link AttemptOrigin} (the HTTP API gives one, with the client address) counts its *failed*
 * attempts per address and per e-mail and is refused with 429 `rate_limited` once a failure budget
 * is spent; successes are not counted. Password-reset requests count per e-mail. Calls without an
 * origin (in process) are not limited.
 */
export function createCustomerAccountService(ctx: ServiceContext) {
  const { passwords } = ctx;
  const limits = createAttemptLimits(ctx.rateLimits);
  const wrongCredentials = (error: CommerceError) => error.code === 'invalid_credentials';

  /** Signs the customer in, in the caller's transaction: a new token and the customer's view. */
  async function openSession(work: Work, scope: Scope, customer: CustomerRecord): Promise<CustomerSession> {
    const token = await newCustomerToken(ctx);
    const issued = await storeCustomerToken(ctx, work, scope, customer.id, token);
    return {
      customer: await customerView(work.tx, scope, customer),
      token: issued.token,
      expires_at: issued.expires_at,
    };
  }

  /** Sets a new password hash, emitting `customer.updated` when `has_password` changes. */
  async function setPassword(work: Work, scope: Scope, customer: CustomerRecord, password_hash: string) {
    const updated = await work.tx.customers.update(scope, customer.id, {
      password_hash,
      updated_at: work.now,
    });
    if (!updated) throw errors.notFound('customer', customer.id);
    if (customer.password_hash === null) {
      work.emit(scope, 'customer.updated', await customerView(work.tx, scope, updated));
    }
    return updated;
  }

  /** The customer, re-read in the transaction, if its password hash is still `expected`. */
  async function unchanged(
    tx: Repositories,
    scope: Scope,
    customer: CustomerRecord,
  ): Promise<CustomerRecord | null> {
    const current = await tx.customers.get(scope, customer.id);
    return current && current.password_hash === customer.password_hash ? current : null;
  }

  /** Sign-in as `signIn` describes it, once the limits let it through. */
  async function signInChecked(scope: Scope, input: CustomerSignIn): Promise<CustomerSession> {
    const customer = await read(ctx, (tx) => tx.customers.get(scope, { email: input.email }));
    const ok =
      customer?.password_hash != null
        ? await passwords.verify(input.password, customer.password_hash)
        : await passwords.verifyNothing(input.password);
    if (!ok || !customer) throw invalidCredentials();
    if (customer.status === 'disabled') throw disabled();
    const rehash = passwords.needsRehash(customer.password_hash as string)
      ? await passwords.hash(input.password)
      : null;
    return write(ctx, scope, async (work) => {
      const current = await unchanged(work.tx, scope, customer);
      // The password changed (or the customer went) since it was checked: check again.
      if (!current) throw invalidCredentials();
      if (rehash !== null)
        await work.tx.customers.update(scope, customer.id, { password_hash: rehash, updated_at: work.now });
      return openSession(work, scope, current);
    });
  }

  /** The password change as `changePassword` describes it, once the limits let it through. */
  async function changePasswordChecked(
    scope: Scope,
    caller: SignedInCustomer,
    customer: CustomerRecord,
    input: CustomerPasswordChange,
  ): Promise<CustomerWire> {
    const wrong = () =>
      new CommerceError('invalid_credentials', 'The current password is not correct', {
        param: 'current_password',
      });
    if (customer.password_hash === null) {
      await passwords.verifyNothing(input.current_password);
      throw wrong();
    }
    if (!(await passwords.verify(input.current_password, customer.password_hash))) throw wrong();
    refuseEmailAsPassword(customer.email, input.new_password, 'new_password');
    const password_hash = await passwords.hash(input.new_password);
    return write(ctx, scope, async (work) => {
      if (!(await unchanged(work.tx, scope, customer))) throw wrong();
      const updated = await setPassword(work, scope, customer, password_hash);
      await work.tx.customerTokens.delete(scope, { customer_id: customer.id, except_id: caller.token_id });
      await work.tx.passwordResets.deleteForCustomer(scope, customer.id);
      return customerView(work.tx, scope, updated);
    });
  }

  /** A new reset token for an active customer of that e-mail, replacing earlier ones, and its event. */
  async function createResetToken(scope: Scope, input: PasswordResetRequest): Promise<typeof SUCCESS> {
    const token = `prt_${ctx.crypto.randomToken(RESET_TOKEN_BYTES)}`;
    const token_hash = await ctx.crypto.sha256Hex(token);
    await write(
      ctx,
      scope,
      async ({ tx, now, emit }) => {
        const customer = await tx.customers.get(scope, { email: input.email });
        if (!customer || customer.status === 'disabled') {
          // The same work as for an active account (docs/contract.md#password-reset): two writes,
          // a row inserted and deleted again in this transaction (a decoy idempotency claim that
          // nobody can see or hold), so its COMMIT waits for the same log flush a real reset's
          // does — a transaction that only reads would answer measurably sooner.
          const decoy = {
            key: `password_reset_decoy_${ctx.crypto.randomToken(16)}`,
            caller: 'password_reset_decoy',
            claim_token: ctx.crypto.randomToken(16),
          };
          await tx.idempotency.claim(
            scope,
            {
              ...decoy,
              operation: 'customers.requestPasswordReset',
              request_hash: token_hash,
              locked_until: now,
              created_at: now,
              expires_at: now + 60_000,
            },
            null,
          );
          await tx.idempotency.release(scope, decoy);
          return;
        }
        const record: PasswordResetRecord = {
          id: ctx.ids.next('prt'),
          store_id: scope.store_id,
          mode: scope.mode,
          customer_id: customer.id,
          token_hash,
          expires_at: now + PASSWORD_RESET_TTL_MS,
          created_at: now,
        };
        await tx.passwordResets.replace(record);
        emit(scope, 'customer.password_reset_requested', {
          customer_id: customer.id,
          email: customer.email,
          token,
          expires_at: iso(record.expires_at),
        });
      },
      { answer: () => SUCCESS },
    );
    return SUCCESS;
  }

  /** The reset confirmation as `confirmPasswordReset` describes it, once the limits let it through. */
  async function confirmResetChecked(scope: Scope, input: PasswordResetConfirm): Promise<CustomerSession> {
    if (!RESET_TOKEN_PATTERN.test(input.token)) throw resetTokenInvalid();
    const token_hash = await ctx.crypto.sha256Hex(input.token);
    // Hashed before the transaction (about 100 ms), so the claim holds no lock meanwhile.
    const password_hash = await passwords.hash(input.new_password);
    return write(ctx, scope, async (work) => {
      const { tx, now } = work;
      const reset = await tx.passwordResets.consume(scope, token_hash);
      if (!reset || reset.expires_at <= now) throw resetTokenInvalid();
      const customer = await requireCustomer(tx, scope, reset.customer_id);
      if (customer.status === 'disabled') throw disabled();
      refuseEmailAsPassword(customer.email, input.new_password, 'new_password');
      const updated = await setPassword(work, scope, customer, password_hash);
      await tx.customerTokens.delete(scope, { customer_id: customer.id });
      await tx.passwordResets.deleteForCustomer(scope, customer.id);
      return openSession(work, scope, updated);
    });
  }

  return {
    /**
     * `POST /v1/storefront/customer-auth/register`: creates an active customer with a password and
     * signs them in. An e-mail already taken (with or without a password) → 409 `duplicate_email`
     * (one account per e-mail also under concurrent sign-ups: the storage's unique e-mail decides).
     * No password is checked: only the API key's ordinary budget applies.
     */
    async register(scope: Scope, input: CustomerRegister): Promise<CustomerSession> {
      // CustomerRegisterSchema already refused the e-mail as password.
      const password_hash = await passwords.hash(input.password);
      return write(ctx, scope, async (work) => {
        const { now } = work;
        const record: CustomerRecord = {
          id: ctx.ids.next('cus'),
          store_id: scope.store_id,
          mode: scope.mode,
          email: input.email,
          first_name: input.first_name ?? null,
          last_name: input.last_name ?? null,
          phone: input.phone ?? null,
          external_id: null,
          status: 'active',
          tags: [],
          metadata: {},
          password_hash,
          created_at: now,
          updated_at: now,
        };
        await work.tx.customers.insert(record);
        const session = await openSession(work, scope, record);
        work.emit(scope, 'customer.created', session.customer);
        return session;
      });
    },

    /**
     * `POST /v1/storefront/customer-auth/login`. Unknown e-mail, no password set, or a wrong
     * password → 401 `invalid_credentials`, after the same hashing work; a disabled customer → 403
     * `customer_disabled`, told only to whoever knows the password. A hash made with older
     * parameters is replaced by one with the current parameters. With an `origin`, a 401 counts as
     * a failure of the address and of the e-mail; a spent budget → 429 before any check.
     */
    async signIn(scope: Scope, input: CustomerSignIn, origin?: AttemptOrigin): Promise<CustomerSession> {
      return limits.attempt(origin, scope, input.email, wrongCredentials, () => signInChecked(scope, input));
    },

    /** `POST /v1/storefront/customer-auth/logout`: revokes the presented token. */
    async signOut(scope: Scope, token_id: string): Promise<typeof SUCCESS> {
      await write(ctx, scope, ({ tx }) => tx.customerTokens.delete(scope, token_id), {
        answer: () => SUCCESS,
      });
      return SUCCESS;
    },

    /**
     * `POST /v1/storefront/customers/me/password`. A wrong current password → 422
     * `invalid_credentials` (`param: current_password`), counted with an `origin` as a failure of
     * the address and of the customer's e-mail. Every other token of the customer and every
     * pending reset token stop working in the same transaction; the caller's token stays.
     */
    async changePassword(
      scope: Scope,
      caller: SignedInCustomer,
      input: CustomerPasswordChange,
      origin?: AttemptOrigin,
    ): Promise<CustomerWire> {
      const customer = await read(ctx, (tx) => requireCustomer(tx, scope, caller.customer_id));
      return limits.attempt(origin, scope, customer.email, wrongCredentials, () =>
        changePasswordChecked(scope, caller, customer, input),
      );
    },

    /**
     * `POST /v1/storefront/customers/password-reset`: always `{ success: true }`. For an active
     * customer, replaces any earlier reset token by a new one and emits
     * `customer.password_reset_requested` with `{ customer_id, email, token, expires_at }`. With an
     * `origin`, each request counts toward the e-mail's `password_reset` budget (known e-mail or
     * not); past it, nothing is created or sent.
     */
    async requestPasswordReset(
      scope: Scope,
      input: PasswordResetRequest,
      origin?: AttemptOrigin,
    ): Promise<typeof SUCCESS> {
      if (!(await limits.resetRequestAllowed(origin, scope, input.email))) return SUCCESS;
      return createResetToken(scope, input);
    },

    /**
     * `POST /v1/storefront/customers/password-reset/confirm`: claims the reset token (unknown,
     * used or expired → 422 `reset_token_invalid`, with an `origin` a failure of the address — never
     * of an e-mail, so no guesser can lock the owner out), sets the new password, revokes every
     * earlier customer token, and signs the customer in.
     */
    async confirmPasswordReset(
      scope: Scope,
      input: PasswordResetConfirm,
      origin?: AttemptOrigin,
    ): Promise<CustomerSession> {
      return limits.attempt(
        origin,
        scope,
        undefined,
        (error) => error.code === 'reset_token_invalid',
        () => confirmResetChecked(scope, input),
      );
    },
  };
}

export type CustomerAccountService = ReturnType<typeof createCustomerAccountService>;
