import type { CustomerRecord, JsonObject } from '../ports/storage';

/** The customer fields a PATCH can change (admin: all of them; storefront: the profile ones). */
export type CustomerChangeableField =
  | 'email'
  | 'first_name'
  | 'last_name'
  | 'phone'
  | 'external_id'
  | 'status'
  | 'tags'
  | 'metadata';

/** A requested change: a field left out (undefined) is not changed; `null` clears an optional text. */
export type CustomerChangeRequest = { [K in CustomerChangeableField]?: CustomerRecord[K] | undefined };

/** The fields of a request that really differ from the record. */
export type CustomerChanges = Partial<Pick<CustomerRecord, CustomerChangeableField>>;

/** Equality of JSON values, independent of object key order (metadata is compared by content). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, index) => sameJson(item, b[index]));
  }
  const left = a as JsonObject;
  const right = b as JsonObject;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  return keys.every((key) => Object.hasOwn(right, key) && sameJson(left[key], right[key]));
}

const FIELDS: readonly CustomerChangeableField[] = [
  'email',
  'first_name',
  'last_name',
  'phone',
  'external_id',
  'status',
  'tags',
  'metadata',
];

/**
 * The part of `request` that changes `record`, so that a PATCH repeating the current values
 * writes nothing and raises no `customer.updated` (the event means "the customer changed").
 * An e-mail that differs only in case is a change (it is shown as given).
 *
 * @example diffCustomer({ ...record, first_name: 'Ada' }, { first_name: 'Ada', last_name: 'L' }) // { last_name: 'L' }
 */
export function diffCustomer(record: CustomerRecord, request: CustomerChangeRequest): CustomerChanges {
  const changes: Record<string, unknown> = {};
  for (const field of FIELDS) {
    const value = request[field];
    if (value === undefined) continue;
    if (!sameJson(record[field], value)) changes[field] = value;
  }
  return changes as CustomerChanges;
}
