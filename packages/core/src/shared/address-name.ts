/**
 * Who an address is for (decisions §22, docs/contract.md#addresses): either `name`, or
 * `first_name` + `last_name` (the public client's `CartAddress`), or all three.
 *
 * - `name` given: it is the name; the parts are kept as given (both, or neither).
 * - only the parts: `name` is `"first last"`.
 * - one part without the other (with or without `name`): the other is missing.
 * - none of them: `name` is missing.
 *
 * A part counts as given when it is present and not `null` (`null` means "not given", as for
 * every optional address field); whether a given value is well-formed is the schema's business.
 */

/** The name fields of an address as a request carries them. */
export interface AddressNameInput {
  name?: string | null | undefined;
  first_name?: string | null | undefined;
  last_name?: string | null | undefined;
}

/** The name fields as stored and shown: `name` always, the parts or `null`. */
export interface AddressName {
  name: string;
  first_name: string | null;
  last_name: string | null;
}

export type AddressNameField = keyof AddressName;

export type AddressNameResult = { ok: true; value: AddressName } | { ok: false; missing: AddressNameField };

const given = (value: unknown): boolean => value !== undefined && value !== null;

/** The field an address's name group lacks, or `null` when it is complete (see the module comment). */
export function missingAddressNameField(input: {
  name?: unknown;
  first_name?: unknown;
  last_name?: unknown;
}): AddressNameField | null {
  const first = given(input.first_name);
  const last = given(input.last_name);
  if (first && !last) return 'last_name';
  if (last && !first) return 'first_name';
  if (!first && !given(input.name)) return 'name';
  return null;
}

/** The message of a missing name field (after its param, e.g. `shipping_address[last_name] …`). */
export function missingAddressNameMessage(field: AddressNameField): string {
  switch (field) {
    case 'first_name':
      return 'is required when last_name is given';
    case 'last_name':
      return 'is required when first_name is given';
    case 'name':
      return 'is required (or first_name and last_name)';
  }
}

/** Resolves the name group of an address (see the module comment). */
export function resolveAddressName(input: AddressNameInput): AddressNameResult {
  const missing = missingAddressNameField(input);
  if (missing !== null) return { ok: false, missing };
  const first_name = input.first_name ?? null;
  const last_name = input.last_name ?? null;
  const name = input.name ?? `${first_name} ${last_name}`;
  return { ok: true, value: { name, first_name, last_name } };
}
