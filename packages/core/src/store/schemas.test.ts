import { describe, expect, test } from 'vitest';
import { parseInput } from '../shared/schemas/parse';
import { expectRejected } from '../shared/schemas/test-helpers';
import { isTimeZone, OrganizationUpdateSchema, StoreUpdateSchema } from './schemas';

describe('StoreUpdate (decisions §8)', () => {
  test('all fields; currency upper-cased; tax_rate 8.875 allowed', () => {
    const patch = {
      name: 'Shop',
      currency: 'eur',
      timezone: 'Europe/Paris',
      prices_include_tax: true,
      tax_rate: 8.875,
      metadata: { a: 1 },
    };
    expect(parseInput(StoreUpdateSchema, patch)).toEqual({ ...patch, currency: 'EUR' });
  });

  test('tax_rate 0..100 with at most 6 decimals', () => {
    expectRejected(StoreUpdateSchema, { tax_rate: -1 }, 'parameter_invalid', 'tax_rate');
    expectRejected(StoreUpdateSchema, { tax_rate: 100.5 }, 'parameter_invalid', 'tax_rate');
    expectRejected(StoreUpdateSchema, { tax_rate: 0.1 + 0.2 }, 'parameter_invalid', 'tax_rate');
    expectRejected(StoreUpdateSchema, { tax_rate: '20' }, 'parameter_invalid', 'tax_rate');
  });

  test('timezone must be an IANA zone; currency a 3-letter code', () => {
    expect(isTimeZone('America/New_York')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expectRejected(StoreUpdateSchema, { timezone: 'Mars/Olympus' }, 'parameter_invalid', 'timezone');
    expectRejected(StoreUpdateSchema, { currency: 'dollars' }, 'parameter_invalid', 'currency');
  });

  test('id and unknown fields are refused', () => {
    expectRejected(StoreUpdateSchema, { id: 'store_1' }, 'parameter_unknown', 'id');
  });
});

describe('OrganizationUpdate', () => {
  test('name, billing_email (or null), metadata', () => {
    expect(parseInput(OrganizationUpdateSchema, { name: 'Acme', billing_email: null })).toEqual({
      name: 'Acme',
      billing_email: null,
    });
    expectRejected(OrganizationUpdateSchema, { billing_email: 'nope' }, 'parameter_invalid', 'billing_email');
    expectRejected(OrganizationUpdateSchema, { plan: 'pro' }, 'parameter_unknown', 'plan');
  });
});
