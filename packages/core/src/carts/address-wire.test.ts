import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { addressFromInput, addressToWire } from './address-wire';

const PARTS = [
  'company',
  'line1',
  'line2',
  'city',
  'state',
  'postal_code',
  'country',
  'phone',
  'label',
  'receiver_name',
] as const;
const REQUIRED = new Set(['line1', 'city', 'postal_code', 'country']);

describe('addresses between the wire and storage', () => {
  test('stored blank parts are omitted; on the wire required parts are "" and optional ones null', () => {
    const stored = addressFromInput({
      name: 'Ada',
      company: null,
      line1: '1 St',
      line2: undefined,
      country: 'GB',
    });
    expect(stored).toEqual({ name: 'Ada', line1: '1 St', country: 'GB' });
    expect(addressToWire(stored)).toEqual({
      name: 'Ada',
      first_name: null,
      last_name: null,
      company: null,
      line1: '1 St',
      line2: null,
      city: '',
      state: null,
      postal_code: '',
      country: 'GB',
      phone: null,
      label: null,
      receiver_name: null,
    });
    expect(addressFromInput(null)).toBeNull();
    expect(addressToWire(null)).toBeNull();
  });

  test('a value stored before decisions §22 (no first_name, last_name, label, receiver_name) reads them as null', () => {
    const old = { name: 'Ada', line1: '1 St', city: 'London', postal_code: 'N1', country: 'GB' };
    expect(addressToWire(old)).toMatchObject({
      first_name: null,
      last_name: null,
      label: null,
      receiver_name: null,
    });
  });

  test('the SDK’s CartAddress (first_name + last_name) is stored with name "first last"; label and receiver_name kept', () => {
    const stored = addressFromInput({
      first_name: 'Ada',
      last_name: 'Lovelace',
      line1: '1 St',
      label: 'Home',
      receiver_name: 'Reception',
    });
    expect(stored).toEqual({
      name: 'Ada Lovelace',
      first_name: 'Ada',
      last_name: 'Lovelace',
      line1: '1 St',
      label: 'Home',
      receiver_name: 'Reception',
    });
    expect(addressToWire(stored)).toMatchObject({
      name: 'Ada Lovelace',
      first_name: 'Ada',
      last_name: 'Lovelace',
    });
  });

  test('every part given survives the round trip; every part left blank reads as "" or null by its kind', () => {
    const part = fc.option(fc.string({ minLength: 1, maxLength: 20 }), { nil: null });
    fc.assert(
      fc.property(
        fc.record(
          Object.fromEntries(PARTS.map((p) => [p, part])) as Record<(typeof PARTS)[number], typeof part>,
        ),
        fc.string({ minLength: 1, maxLength: 20 }),
        fc.option(fc.tuple(fc.string({ minLength: 1 }), fc.string({ minLength: 1 })), { nil: null }),
        (input, name, parts) => {
          const names = parts === null ? {} : { first_name: parts[0], last_name: parts[1] };
          const wire = addressToWire(addressFromInput({ ...input, name, ...names }));
          for (const p of PARTS) {
            const given = input[p];
            expect(wire?.[p]).toBe(given !== null ? given : REQUIRED.has(p) ? '' : null);
          }
          expect(wire?.name).toBe(name);
          expect(wire?.first_name).toBe(parts?.[0] ?? null);
          expect(wire?.last_name).toBe(parts?.[1] ?? null);
        },
      ),
    );
  });
});
