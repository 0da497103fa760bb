import type { CustomerRecord, PageRequest, Scope } from '../ports/storage';
import type { ServiceContext } from '../shared/context';
import { errors } from '../shared/errors';
import { read, type Work, write } from '../shared/unit-of-work';
import { createCustomerAddressBook } from './customer-address-book';
import { type CustomerChangeRequest, diffCustomer } from './customer-changes';
import { issueCustomerToken } from './customer-tokens';
import { customerView, customerViews, requireCustomer, storeCurrency } from './customer-views';
import type {
  CustomerCreate,
  CustomerStatus,
  CustomerTokenCreate,
  CustomerUpdate,
  StorefrontCustomerUpdate,
} from './schemas';
import { type CustomerWire, customerToWire } from './wire';

/** Filters of `GET /v1/admin/customers` (docs/contract.md#list-filters). */
export interface CustomerListFilter {
  /** Case-insensitive partial match on first name, last name or e-mail. */
  q?: string | undefined;
  status?: CustomerStatus | undefined;
  /** Customers carrying this tag. */
  tag?: string | undefined;
}

/**
 * Customers (docs/contract.md#customer-tokens, #customers, #customer-totals): the admin API, customer tokens, the
 * signed-in customer's profile and address book. Every method returns wire objects.
 *
 * Events (docs/contract.md#events), written in the transaction of the change with the admin view of the
 * customer as data:
 * - `customer.created` on creation;
 * - `customer.updated` on any change — admin or storefront PATCH, status changes, and address
 *   book changes (the Customer resource lists its addresses). A PATCH that repeats the current
 *   values changes nothing and emits nothing.
 * Deleting a customer emits no event: the webhook event list has no `customer.deleted`.
 */
export function createCustomerService(ctx: ServiceContext) {
  /** Applies the fields that really change, emitting `customer.updated` when there are any. */
  async function applyChanges(work: Work, scope: Scope, id: string, request: CustomerChangeRequest) {
    const { tx, now } = work;
    const existing = await requireCustomer(tx, scope, id);
    const changes = diffCustomer(existing, request);
    if (Object.keys(changes).length === 0) return customerView(tx, scope, existing);
    const updated = await tx.customers.update(scope, id, { ...changes, updated_at: now });
    if (!updated) throw errors.notFound('customer', id);
    const view = await customerView(tx, scope, updated);
    work.emit(scope, 'customer.updated', view);
    return view;
  }

  return {
    /** `POST /v1/admin/customers`. E-mail unique per store and mode, case-insensitive (409 `duplicate_email`). */
    async create(scope: Scope, input: CustomerCreate): Promise<CustomerWire> {
      // Optional password (docs/contract.md#passwords; CustomerCreateSchema refuses the e-mail as
      // password), hashed before the transaction.
      const password_hash = input.password === undefined ? null : await ctx.passwords.hash(input.password);
      return write(ctx, scope, async ({ tx, now, emit }) => {
        const record: CustomerRecord = {
          id: ctx.ids.next('cus'),
          store_id: scope.store_id,
          mode: scope.mode,
          email: input.email,
          first_name: input.first_name ?? null,
          last_name: input.last_name ?? null,
          phone: input.phone ?? null,
          external_id: input.external_id ?? null,
          status: input.status,
          tags: input.tags,
          metadata: input.metadata,
          password_hash,
          created_at: now,
          updated_at: now,
        };
        const currency = await storeCurrency(tx, scope);
        await tx.customers.insert(record);
        // A new customer has no orders and no addresses: no need to read them back.
        const view = customerToWire(record, undefined, [], currency);
        emit(scope, 'customer.created', view);
        return view;
      });
    },

    /** `GET /v1/admin/customers`: newest first; totals and addresses loaded for the whole page at once. */
    async list(scope: Scope, filter: CustomerListFilter, page: PageRequest<'created_at'>) {
      return read(ctx, async (tx) => {
        const result = await tx.customers.list(scope, filter, page);
        return { ...result, data: await customerViews(tx, scope, result.data) };
      });
    },

    /** `GET /v1/admin/customers/{id}`; also the storefront's `GET /customers/me` with the token's customer. */
    async get(scope: Scope, id: string): Promise<CustomerWire> {
      return read(ctx, async (tx) => customerView(tx, scope, await requireCustomer(tx, scope, id)));
    },

    /** `PATCH /v1/admin/customers/{id}`: any field, `status` included (docs/contract.md#customers). */
    async update(scope: Scope, id: string, input: CustomerUpdate): Promise<CustomerWire> {
      return write(ctx, scope, (work) => applyChanges(work, scope, id, input));
    },

    /**
     * `DELETE /v1/admin/customers/{id}` → `{ id, deleted: true }`. The customer's tokens are
     * deleted in the same transaction, so they stop working at once; the e-mail becomes free
     * again. Their orders keep their `customer_id`.
     */
    async delete(scope: Scope, id: string) {
      return write(ctx, scope, async ({ tx, now }) => {
        await tx.customerTokens.delete(scope, { customer_id: id });
        await tx.passwordResets.deleteForCustomer(scope, id);
        // Unknown id: the 404 rolls the token deletion back (there was nothing to delete anyway).
        if (!(await tx.customers.delete(scope, id, now))) throw errors.notFound('customer', id);
        return { id, deleted: true as const };
      });
    },

    /** `POST /v1/admin/customers/{id}/token` (docs/contract.md#customer-tokens); see {@link issueCustomerToken}. */
    async issueToken(scope: Scope, id: string, input: Partial<CustomerTokenCreate> = {}) {
      return issueCustomerToken(ctx, scope, id, input.expires_in);
    },

    /** `GET /v1/storefront/customers/me`: the signed-in customer (id from the customer token). */
    async getProfile(scope: Scope, customer_id: string): Promise<CustomerWire> {
      return read(ctx, async (tx) => customerView(tx, scope, await requireCustomer(tx, scope, customer_id)));
    },

    /**
     * `PATCH /v1/storefront/customers/me`. `status` is accepted (the spec lists it) but never
     * applied: only the admin API changes a customer's status (docs/contract.md#customers).
     */
    async updateProfile(
      scope: Scope,
      customer_id: string,
      input: StorefrontCustomerUpdate,
    ): Promise<CustomerWire> {
      const { status: _ignored, ...profile } = input;
      return write(ctx, scope, (work) => applyChanges(work, scope, customer_id, profile));
    },

    ...createCustomerAddressBook(ctx),
  };
}

export type CustomerService = ReturnType<typeof createCustomerService>;
