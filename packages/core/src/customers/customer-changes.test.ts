import { describe, expect, test } from 'vitest';
import type { CustomerRecord } from '../ports/storage';
import { diffCustomer, sameJson } from './customer-changes';

const record: CustomerRecord = {
  id: 'cus_1',
  store_id: 'store_1',
  mode: 'test',
  email: 'ada@example.com',
  first_name: 'Ada',
  last_name: null,
  phone: null,
  external_id: null,
  status: 'active',
  tags: ['vip', 'eu'],
  metadata: { a: 1, b: { c: [1, 2] } },
  password_hash: null,
  created_at: 0,
  updated_at: 0,
};

describe('sameJson', () => {
  test('objects equal by content whatever the key order: {a:1,b:2} = {b:2,a:1}', () => {
    expect(sameJson({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true);
  });
  test('arrays compare in order: [1,2] ≠ [2,1]', () => {
    expect(sameJson([1, 2], [2, 1])).toBe(false);
  });
  test('a missing key differs from null: {a:null} ≠ {b:null}', () => {
    expect(sameJson({ a: null }, { b: null })).toBe(false);
  });
  test('an array is not an object with the same keys: [1] ≠ {0:1}', () => {
    expect(sameJson([1], { 0: 1 })).toBe(false);
  });
});

describe('diffCustomer', () => {
  test('repeating current values is no change: first_name Ada, metadata reordered → {}', () => {
    expect(diffCustomer(record, { first_name: 'Ada', metadata: { b: { c: [1, 2] }, a: 1 } })).toEqual({});
  });
  test('only the fields that differ are kept: { first_name: Ada, last_name: Lovelace } → { last_name }', () => {
    expect(diffCustomer(record, { first_name: 'Ada', last_name: 'Lovelace' })).toEqual({
      last_name: 'Lovelace',
    });
  });
  test('null clears an optional text: first_name null → { first_name: null }', () => {
    expect(diffCustomer(record, { first_name: null })).toEqual({ first_name: null });
  });
  test('undefined leaves a field alone: { phone: undefined } → {}', () => {
    expect(diffCustomer(record, { phone: undefined })).toEqual({});
  });
  test('a case-only e-mail change is a change: ADA@example.com', () => {
    expect(diffCustomer(record, { email: 'ADA@example.com' })).toEqual({ email: 'ADA@example.com' });
  });
  test('tag order matters: [eu, vip] is a change of [vip, eu]', () => {
    expect(diffCustomer(record, { tags: ['eu', 'vip'] })).toEqual({ tags: ['eu', 'vip'] });
  });
  test('status disabled is a change of active', () => {
    expect(diffCustomer(record, { status: 'disabled' })).toEqual({ status: 'disabled' });
  });
});
