import type { CustomerAddressRecord, Scope } from '../ports/storage';
import {
  type AddressName,
  type AddressNameInput,
  missingAddressNameMessage,
  resolveAddressName,
} from '../shared/address-name';
import type { ServiceContext } from '../shared/context';
import { CommerceError } from '../shared/errors';
import { read, type Work, write } from '../shared/unit-of-work';
import { customerView, requireCustomer } from './customer-views';
import type { CustomerAddressCreate, CustomerAddressUpdate } from './schemas';
import { customerAddressToWire } from './wire';

/** The columns of a saved address that its body sets (all but ids, owner and timestamps). */
type AddressColumns = Omit<
  CustomerAddressRecord,
  'id' | 'store_id' | 'mode' | 'customer_id' | 'created_at' | 'updated_at'
>;

/** The name group resolved, or 400 `parameter_missing` naming the field it lacks. */
function addressName(input: AddressNameInput) {
  const resolved = resolveAddressName(input);
  if (!resolved.ok) {
    const param = resolved.missing;
    throw new CommerceError('parameter_missing', `${param} ${missingAddressNameMessage(param)}`, { param });
  }
  return resolved.value;
}

/** The columns of a create body: `name` completed from the parts when only they were given. */
function addressColumns(input: CustomerAddressCreate): AddressColumns {
  return {
    ...addressName(input),
    company: input.company ?? null,
    label: input.label ?? null,
    receiver_name: input.receiver_name ?? null,
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

/**
 * The name group a partial update leaves (docs/contract.md#addresses):
 * - `name` given: that name, with the parts the body gives (none → both cleared);
 * - only parts given: merged with the stored ones; when both are then set, `name` is
 *   `"first last"` again, otherwise the stored `name` stays;
 * - none of them: unchanged.
 * The result must satisfy the create rule, so one part without the other is 400 `parameter_missing`.
 */
export function mergedAddressName(existing: AddressName, patch: AddressNameInput): AddressName {
  if (patch.name !== undefined && patch.name !== null) {
    return addressName({ name: patch.name, first_name: patch.first_name, last_name: patch.last_name });
  }
  if (patch.first_name === undefined && patch.last_name === undefined) {
    return { name: existing.name, first_name: existing.first_name, last_name: existing.last_name };
  }
  const first_name = patch.first_name === undefined ? existing.first_name : patch.first_name;
  const last_name = patch.last_name === undefined ? existing.last_name : patch.last_name;
  const both = first_name !== null && last_name !== null;
  return addressName({ name: both ? undefined : existing.name, first_name, last_name });
}

/** The stored address with a partial update applied: absent fields unchanged, `null` clears. */
function mergedColumns(existing: CustomerAddressRecord, patch: CustomerAddressUpdate): AddressColumns {
  const optional = (key: 'company' | 'label' | 'receiver_name' | 'line2' | 'state' | 'phone') =>
    patch[key] === undefined ? existing[key] : (patch[key] ?? null);
  return {
    ...mergedAddressName(existing, patch),
    company: optional('company'),
    label: optional('label'),
    receiver_name: optional('receiver_name'),
    line1: patch.line1 ?? existing.line1,
    line2: optional('line2'),
    city: patch.city ?? existing.city,
    state: optional('state'),
    postal_code: patch.postal_code ?? existing.postal_code,
    country: patch.country ?? existing.country,
    phone: optional('phone'),
    type: patch.type ?? existing.type,
    is_default: patch.is_default ?? existing.is_default,
  };
}

const addressNotFound = (id: string) => new CommerceError('not_found', `No such address: '${id}'`);

/**
 * The signed-in customer's address book (docs/contract.md#customers). Every method
 * takes the customer id resolved from the customer token, so another customer's address is
 * simply not found (404).
 *
 * Decisions:
 * - `PATCH …/addresses/{id}` is partial (decisions §22, as the public client sends it): fields
 *   left out stay as they are, `null` clears an optional one, and the address that results must
 *   satisfy the create rules — for the name group see {@link mergedAddressName}.
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
      return write(ctx, scope, async (work) => {
        const { tx, now } = work;
        await requireCustomer(tx, scope, customer_id);
        const record: CustomerAddressRecord = {
          id: ctx.ids.next('addr'),
          store_id: scope.store_id,
          mode: scope.mode,
          customer_id,
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

    /** `PATCH /v1/storefront/customers/me/addresses/{address_id}`: a partial update (see above). */
    async updateAddress(scope: Scope, customer_id: string, address_id: string, input: CustomerAddressUpdate) {
      return write(ctx, scope, async (work) => {
        const { tx, now } = work;
        const [existing] = await tx.customers.listAddresses(scope, [customer_id], { id: address_id });
        if (!existing) throw addressNotFound(address_id);
        const columns = mergedColumns(existing, input);
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
      return write(ctx, scope, async (work) => {
        const deleted = await work.tx.customers.deleteAddress(scope, customer_id, address_id);
        if (!deleted) throw addressNotFound(address_id);
        await emitCustomerUpdated(work, scope, customer_id);
        return { id: address_id, deleted: true as const };
      });
    },
  };
}

export type CustomerAddressBook = ReturnType<typeof createCustomerAddressBook>;
