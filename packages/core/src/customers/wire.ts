import type { CustomerAddressRecord, CustomerRecord } from '../ports/storage';
import { iso, money } from '../shared/wire-format';
import type { CustomerTotals } from './customer-totals';

/** Totals of a customer without orders. */
const NO_TOTALS: CustomerTotals = { total_orders: 0, total_spent: 0 };

/**
 * A saved address as the spec's embedded `Address` shape (no id, type or default flag): what the
 * Customer resource lists under `addresses`. Unset optional parts are `null`.
 */
export function addressRecordToAddress(record: CustomerAddressRecord) {
  return {
    name: record.name,
    first_name: record.first_name,
    last_name: record.last_name,
    company: record.company,
    line1: record.line1,
    line2: record.line2,
    city: record.city,
    state: record.state,
    postal_code: record.postal_code,
    country: record.country,
    phone: record.phone,
    label: record.label,
    receiver_name: record.receiver_name,
  };
}

/** The CustomerAddress resource (spec): a saved address with its id, type and default flag. */
export function customerAddressToWire(record: CustomerAddressRecord) {
  return {
    id: record.id,
    ...addressRecordToAddress(record),
    type: record.type,
    is_default: record.is_default,
    created_at: iso(record.created_at),
  };
}

/**
 * The Customer resource (spec). `total_orders` / `total_spent` come from the storage's derived
 * totals (docs/contract.md#customer-totals) and are shown in the store `currency`; `addresses` are the customer's
 * saved addresses in storage order (oldest first, like the address list).
 */
export function customerToWire(
  record: CustomerRecord,
  totals: CustomerTotals | undefined,
  addresses: readonly CustomerAddressRecord[],
  currency: string,
) {
  const { total_orders, total_spent } = totals ?? NO_TOTALS;
  return {
    id: record.id,
    email: record.email,
    first_name: record.first_name,
    last_name: record.last_name,
    phone: record.phone,
    external_id: record.external_id,
    status: record.status,
    total_orders,
    total_spent: money(total_spent, currency),
    tags: record.tags,
    addresses: addresses.map(addressRecordToAddress),
    metadata: record.metadata,
    has_password: record.password_hash !== null,
    created_at: iso(record.created_at),
  };
}

export type CustomerWire = ReturnType<typeof customerToWire>;
export type CustomerAddressWire = ReturnType<typeof customerAddressToWire>;
