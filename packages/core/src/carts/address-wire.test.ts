import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { addressFromInput, addressToWire } from './wire';

const PARTS = [
  'name',
  'company',
  'line1',
  'line2',
  'city',
  'state',
  'postal_code',
  'country',
  'phone',
] as const;
const REQUIRED = new Set(['name', 'line1', 'city', 'postal_code', 'country']);

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
      company: null,
      line1: '1 St',
      line2: null,
      city: '',
      state: null,
      postal_code: '',
      country: 'GB',
      phone: null,
    });
    expect(addressFromInput(null)).toBeNull();
    expect(addressToWire(null)).toBeNull();
  });

  test('every part given survives the round trip; every part left blank reads as "" or null by its kind', () => {
    const part = fc.option(fc.string({ minLength: 1, maxLength: 20 }), { nil: null });
    fc.assert(
      fc.property(
        fc.record(
          Object.fromEntries(PARTS.map((p) => [p, part])) as Record<(typeof PARTS)[number], typeof part>,
        ),
        (input) => {
          const wire = addressToWire(addressFromInput(input));
          for (const p of PARTS) {
            const given = input[p];
            expect(wire?.[p]).toBe(given !== null ? given : REQUIRED.has(p) ? '' : null);
          }
        },
      ),
    );
  });
});
