import { describe, expect, test } from 'vitest';
import { parseInput } from '../shared/schemas/parse';
import { expectRejected } from '../shared/schemas/test-helpers';
import {
  AdminCustomerListQuerySchema,
  CustomerAddressCreateSchema,
  CustomerAddressUpdateSchema,
  CustomerCreateSchema,
  CustomerTokenCreateSchema,
  CustomerUpdateSchema,
  StorefrontCustomerUpdateSchema,
} from './schemas';

describe('CustomerCreate / CustomerUpdate (admin)', () => {
  test('e-mail required; defaults status active, tags [], metadata {}', () => {
    expect(parseInput(CustomerCreateSchema, { email: 'ada@example.com', first_name: 'Ada' })).toEqual({
      email: 'ada@example.com',
      first_name: 'Ada',
      status: 'active',
      tags: [],
      metadata: {},
    });
    expectRejected(CustomerCreateSchema, {}, 'parameter_missing', 'email');
  });

  test('malformed e-mail → "email must be a valid e-mail address"', () => {
    const error = expectRejected(CustomerCreateSchema, { email: 'ada@' }, 'parameter_invalid', 'email');
    expect(error.message).toBe('email must be a valid e-mail address');
  });

  test('admin may set status; only active | disabled', () => {
    expect(parseInput(CustomerUpdateSchema, { status: 'disabled' })).toEqual({ status: 'disabled' });
    expectRejected(CustomerUpdateSchema, { status: 'banned' }, 'parameter_invalid', 'status');
  });

  test('nullable profile fields can be cleared', () => {
    expect(parseInput(CustomerUpdateSchema, { phone: null, external_id: null })).toEqual({
      phone: null,
      external_id: null,
    });
  });
});

describe('StorefrontCustomerUpdate', () => {
  test('accepts the spec fields, status included (ignored later by the service)', () => {
    const body = {
      first_name: 'A',
      last_name: 'B',
      phone: '+1',
      status: 'disabled',
      tags: ['vip'],
      metadata: { a: 1 },
    };
    expect(parseInput(StorefrontCustomerUpdateSchema, body)).toEqual(body);
  });

  test('an invalid status value is still a 400', () => {
    expectRejected(StorefrontCustomerUpdateSchema, { status: 'admin' }, 'parameter_invalid', 'status');
  });

  test('email is not changeable on the storefront (parameter_unknown)', () => {
    expectRejected(StorefrontCustomerUpdateSchema, { email: 'x@y.co' }, 'parameter_unknown', 'email');
  });
});

describe('customer addresses (decisions §22)', () => {
  const address = { name: 'Ada', line1: '1 Main', city: 'Paris', postal_code: '75001', country: 'fr' };

  test('defaults: type both, is_default false; country upper-cased', () => {
    expect(parseInput(CustomerAddressCreateSchema, address)).toEqual({
      ...address,
      country: 'FR',
      type: 'both',
      is_default: false,
    });
  });

  test('create takes first_name + last_name instead of name, label (≤ 100) and receiver_name', () => {
    const { name: _name, ...rest } = address;
    const parts = {
      ...rest,
      first_name: 'Ada',
      last_name: 'Lovelace',
      label: 'Home',
      receiver_name: 'Ada L.',
    };
    expect(parseInput(CustomerAddressCreateSchema, parts)).toMatchObject({
      first_name: 'Ada',
      label: 'Home',
    });
    expectRejected(
      CustomerAddressCreateSchema,
      { ...parts, last_name: undefined },
      'parameter_missing',
      'last_name',
    );
    expectRejected(CustomerAddressCreateSchema, rest, 'parameter_missing', 'name');
    expectRejected(
      CustomerAddressCreateSchema,
      { ...parts, label: 'x'.repeat(101) },
      'parameter_invalid',
      'label',
    );
    expect(parseInput(CustomerAddressCreateSchema, { ...parts, label: 'x'.repeat(100) }).label).toHaveLength(
      100,
    );
  });

  test('update is partial: every field optional, the required ones not clearable', () => {
    expect(parseInput(CustomerAddressUpdateSchema, {})).toEqual({});
    expect(parseInput(CustomerAddressUpdateSchema, { city: 'Lyon' })).toEqual({ city: 'Lyon' });
    expect(parseInput(CustomerAddressUpdateSchema, { first_name: 'Ada' })).toEqual({ first_name: 'Ada' });
    expect(
      parseInput(CustomerAddressUpdateSchema, { ...address, type: 'billing', is_default: true }),
    ).toMatchObject({ country: 'FR', type: 'billing', is_default: true });
    expectRejected(CustomerAddressUpdateSchema, { line1: null }, 'parameter_invalid', 'line1');
    expectRejected(CustomerAddressUpdateSchema, { name: ' ' }, 'parameter_invalid', 'name');
    expectRejected(CustomerAddressUpdateSchema, { label: 'x'.repeat(101) }, 'parameter_invalid', 'label');
    expectRejected(CustomerAddressUpdateSchema, { type: 'home' }, 'parameter_invalid', 'type');
  });

  test('type must be shipping, billing or both', () => {
    expectRejected(CustomerAddressCreateSchema, { ...address, type: 'home' }, 'parameter_invalid', 'type');
  });
});

describe('CustomerTokenCreate (decisions §3)', () => {
  test('empty body → expires_in 86400', () => {
    expect(parseInput(CustomerTokenCreateSchema, {})).toEqual({ expires_in: 86400 });
  });

  test('1 and 2592000 accepted; 0 and 2592001 refused', () => {
    expect(parseInput(CustomerTokenCreateSchema, { expires_in: 1 }).expires_in).toBe(1);
    expect(parseInput(CustomerTokenCreateSchema, { expires_in: 2592000 }).expires_in).toBe(2592000);
    expectRejected(CustomerTokenCreateSchema, { expires_in: 0 }, 'parameter_invalid', 'expires_in');
    const error = expectRejected(
      CustomerTokenCreateSchema,
      { expires_in: 2592001 },
      'parameter_invalid',
      'expires_in',
    );
    expect(error.message).toBe('expires_in must be at most 2592000');
  });
});

describe('admin customer list query', () => {
  test('q, status, tag', () => {
    expect(
      parseInput(AdminCustomerListQuerySchema, { q: 'ada', status: 'active', tag: 'vip' }),
    ).toMatchObject({
      q: 'ada',
      status: 'active',
      tag: 'vip',
      limit: 20,
    });
    expectRejected(AdminCustomerListQuerySchema, { status: 'gone' }, 'parameter_invalid', 'status', 'query');
  });
});
