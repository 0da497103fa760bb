import type { CustomerAddressRecord, Scope } from '../ports/storage';
import type { ServiceContext } from '../shared/context';
import { CommerceError } from '../shared/errors';
import { read, type Work, write } from '../shared/unit-of-work';
import { customerView, requireCustomer } from './customer-views';
import type { CustomerAddressCreate, CustomerAddressUpdate } from './schemas';
import { customerAddressToWire } from './wire';

/** The address fields of a create or (whole-replacement) update body, as record columns. */
function addressColumns(input: CustomerAddressCreate | CustomerAddressUpdate) {
  return {
    name: input.name,
    company: input.company ?? null,
    line1: input.line1,
    line2: input.line2 ?? null,
    city: input.city,
    state: input.state ?? null,
    postal_code: input.postal_code,
    country: input.country,
    phone: input.phone ?? null,
    type: input.type,
    is_default: input.is_default,
  };
}

const addressNotFound = (id: string) => new CommerceError('not_found', `No such address: '${id}'`);

/**
 * The signed-in customer's address book (docs/contract.md#customers). Every method
 * takes the customer id resolved from the customer token, so another customer's address is
 * simply not found (404).
 *
 * Decisions:
 * - `PATCH …/addresses/{id}` takes the spec's "Address update body" (name, line1, city,
 *   postal_code, country required; `type` default both; `is_default` default false), so it
 *   replaces the address as a whole: optional parts left out become null, and leaving out
 *   `is_default` un-defaults the address.
 * - Setting `is_default: true` clears the flag on the customer's other addresses, in the same
 *   transaction. A first address is not made default implicitly (the spec's default is false).
 * - Every change to the address book changes the Customer resource (its `addresses`), so it
 *   emits `customer.updated` with the customer as the admin sees it (docs/contract.md#events); an update
 *   that repeats the address as it is writes nothing and emits nothing.
 */
export function createCustomerAddressBook(ctx: ServiceContext) {
  async function emitCustomerUpdated(work: Work, scope: Scope, customer_id: string): Promise<void> {
    const customer = await requireCustomer(work.tx, scope, customer_id);
    work.emit(scope, 'customer.updated', await customerView(work.tx, scope, customer));
  }

  return {
    /** `GET /v1/storefront/customers/me/addresses`: `{ data }`, oldest first, without paging fields. */
    async listAddresses(scope: Scope, customer_id: string) {
      return read(ctx, async (tx) => {
        await requireCustomer(tx, scope, customer_id);
        const records = await tx.customers.listAddresses(scope, [customer_id]);
        return { data: records.map(customerAddressToWire) };
      });
    },

    /** `POST /v1/storefront/customers/me/addresses`. */
    async createAddress(scope: Scope, customer_id: string, input: CustomerAddressCreate) {
      return write(ctx, async (work) => {
        const { tx, now } = work;
        await requireCustomer(tx, scope, customer_id);
        const record: CustomerAddressRecord = {
          id: ctx.ids.next('addr'),
          store_id: scope.store_id,
          mode: scope.mode,
          customer_id,
          first_name: null,
          last_name: null,
          label: null,
          receiver_name: null,
          ...addressColumns(input),
          created_at: now,
          updated_at: now,
        };
        await tx.customers.insertAddress(record);
        if (record.is_default) await tx.customers.clearDefaultAddress(scope, customer_id, record.id);
        await emitCustomerUpdated(work, scope, customer_id);
        return customerAddressToWire(record);
      });
    },

    /** `PATCH /v1/storefront/customers/me/addresses/{address_id}`: replaces the address (see above). */
    async updateAddress(scope: Scope, customer_id: string, address_id: string, input: CustomerAddressUpdate) {
      return write(ctx, async (work) => {
        const { tx, now } = work;
        const existing = await tx.customers.getAddress(scope, customer_id, address_id);
        if (!existing) throw addressNotFound(address_id);
        const columns = addressColumns(input);
        const unchanged = (Object.keys(columns) as (keyof typeof columns)[]).every(
          (key) => existing[key] === columns[key],
        );
        if (unchanged) return customerAddressToWire(existing);
        const updated = await tx.customers.updateAddress(scope, customer_id, address_id, {
          ...columns,
          updated_at: now,
        });
        if (!updated) throw addressNotFound(address_id);
        if (updated.is_default) await tx.customers.clearDefaultAddress(scope, customer_id, updated.id);
        await emitCustomerUpdated(work, scope, customer_id);
        return customerAddressToWire(updated);
      });
    },

    /** `DELETE /v1/storefront/customers/me/addresses/{address_id}` → `{ id, deleted: true }`. */
    async deleteAddress(scope: Scope, customer_id: string, address_id: string) {
      return write(ctx, async (work) => {
        const deleted = await work.tx.customers.deleteAddress(scope, customer_id, address_id);
        if (!deleted) throw addressNotFound(address_id);
        await emitCustomerUpdated(work, scope, customer_id);
        return { id: address_id, deleted: true as const };
      });
    },
  };
}

export type CustomerAddressBook = ReturnType<typeof createCustomerAddressBook>;
