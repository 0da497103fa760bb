import type { Patch } from './conventions';
import type { Page, PageRequest } from './pagination';
import type {
  CustomerAddressRecord,
  CustomerRecord,
  CustomerTokenRecord,
  PasswordResetRecord,
} from './records';
import type { Millis, Scope } from './scope';

// Customers with their addresses, their sign-in tokens and password resets.

export interface CustomerRepository {
  /** duplicate_email (param `email`) when the e-mail exists in the scope (case-insensitive). */
  insert(record: CustomerRecord): Promise<void>;
  /** The live customer by id, or by `{ email }` (case-insensitive). */
  get(scope: Scope, key: string | { email: string }): Promise<CustomerRecord | null>;
  list(
    scope: Scope,
    filter: { q?: string | undefined; status?: 'active' | 'disabled' | undefined; tag?: string | undefined },
    page: PageRequest<'created_at'>,
  ): Promise<Page<CustomerRecord>>;
  update(
    scope: Scope,
    id: string,
    patch: Patch<
      CustomerRecord,
      | 'email'
      | 'first_name'
      | 'last_name'
      | 'phone'
      | 'external_id'
      | 'status'
      | 'tags'
      | 'metadata'
      | 'password_hash'
    >,
  ): Promise<CustomerRecord | null>;
  delete(scope: Scope, id: string, at: Millis): Promise<boolean>;

  insertAddress(record: CustomerAddressRecord): Promise<void>;
  /**
   * The addresses of these customers (one or a page of them), oldest first, in one query; with
   * `filter.id`, only that address (of one of these customers).
   */
  listAddresses(
    scope: Scope,
    customer_ids: string[],
    filter?: { id?: string | undefined },
  ): Promise<CustomerAddressRecord[]>;
  updateAddress(
    scope: Scope,
    customer_id: string,
    id: string,
    patch: Patch<
      CustomerAddressRecord,
      | 'name'
      | 'first_name'
      | 'last_name'
      | 'company'
      | 'label'
      | 'receiver_name'
      | 'line1'
      | 'line2'
      | 'city'
      | 'state'
      | 'postal_code'
      | 'country'
      | 'phone'
      | 'type'
      | 'is_default'
    >,
  ): Promise<CustomerAddressRecord | null>;
  deleteAddress(scope: Scope, customer_id: string, id: string): Promise<boolean>;
  /** Clears is_default on the customer's other addresses. */
  clearDefaultAddress(scope: Scope, customer_id: string, except_id: string): Promise<void>;
}

export interface CustomerTokenRepository {
  insert(record: CustomerTokenRecord): Promise<void>;
  /** Scoped lookup by hash; expired tokens are returned (the caller checks `expires_at`). */
  findByHash(scope: Scope, token_hash: string): Promise<CustomerTokenRecord | null>;
  /**
   * Revokes one token by id (sign-out), or every token of `{ customer_id }` except `except_id`
   * when given (the token of the caller who changed the password stays signed in). True when it
   * deleted any.
   */
  delete(
    scope: Scope,
    target: string | { customer_id: string; except_id?: string | undefined },
  ): Promise<boolean>;
}

/** Password reset tokens (docs/contract.md#password-reset). */
export interface PasswordResetRepository {
  /**
   * Stores a new reset token for the customer and deletes every earlier one of that customer, in
   * the caller's transaction (a newer request voids older ones).
   */
  replace(record: PasswordResetRecord): Promise<void>;
  /**
   * Claims a token by its hash: deletes it and returns it, whatever its `expires_at` (the caller
   * checks expiry). Atomic: of concurrent claims of one token exactly one gets the record, the
   * others null — a reset token is single-use.
   */
  consume(scope: Scope, token_hash: string): Promise<PasswordResetRecord | null>;
  /** Deletes the customer's reset tokens (customer deleted, or password set another way). */
  deleteForCustomer(scope: Scope, customer_id: string): Promise<void>;
}
