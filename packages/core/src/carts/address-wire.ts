import type { AddressValue } from '../ports/storage';
import { resolveAddressName } from '../shared/address-name';

/**
 * A cart or order address as the wire shows it (spec "Address", decisions §22): required parts as
 * strings, optional parts `null` when blank — `first_name`, `last_name`, `label` and
 * `receiver_name` included, so values stored before they existed read as `null`.
 */
export function addressToWire(address: AddressValue | null) {
  if (address === null) return null;
  return {
    name: address.name ?? '',
    first_name: address.first_name ?? null,
    last_name: address.last_name ?? null,
    company: address.company ?? null,
    line1: address.line1 ?? '',
    line2: address.line2 ?? null,
    city: address.city ?? '',
    state: address.state ?? null,
    postal_code: address.postal_code ?? '',
    country: address.country ?? '',
    phone: address.phone ?? null,
    label: address.label ?? null,
    receiver_name: address.receiver_name ?? null,
  };
}

/** The parts of an address in a request: `null` means blank, absent parts are not given. */
export type AddressInputParts = { [K in keyof AddressValue]?: string | null | undefined };

/**
 * An address from a request to the stored value: blank parts omitted, and `name` completed from
 * `first_name` + `last_name` when only the parts were given (shared/address-name.ts; the schema
 * has already refused an address without a name).
 */
export function addressFromInput(input: AddressInputParts | null): AddressValue | null {
  if (input === null) return null;
  const value: AddressValue = {};
  for (const [key, part] of Object.entries(input)) {
    if (typeof part === 'string') value[key as keyof AddressValue] = part;
  }
  const resolved = resolveAddressName(input);
  if (resolved.ok) value.name = resolved.value.name;
  return value;
}
