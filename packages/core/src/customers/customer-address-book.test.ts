import { describe, expect, test } from 'vitest';
import { CommerceError } from '../shared/errors';
import { mergedAddressName } from './customer-address-book';

const named = { name: 'Ada Lovelace', first_name: null, last_name: null };
const parted = { name: 'Ada Lovelace', first_name: 'Ada', last_name: 'Lovelace' };

function missingParam(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (CommerceError.is(error) && error.code === 'parameter_missing') return error.param;
    throw error;
  }
  throw new Error('expected 400 parameter_missing');
}

describe('a partial PATCH of a saved address: its name (decisions §22)', () => {
  test('no name field in the patch: unchanged', () => {
    expect(mergedAddressName(parted, {})).toEqual(parted);
    // Only the name fields, whatever else the stored record holds.
    expect(mergedAddressName({ ...named, city: 'London' } as typeof named, {})).toEqual(named);
  });

  test('a new name alone clears the parts (they broke down the old name)', () => {
    expect(mergedAddressName(parted, { name: 'Grace Hopper' })).toEqual({
      name: 'Grace Hopper',
      first_name: null,
      last_name: null,
    });
  });

  test('a new name with both parts: name wins, the parts as given', () => {
    expect(mergedAddressName(named, { name: 'G. Hopper', first_name: 'Grace', last_name: 'Hopper' })).toEqual(
      {
        name: 'G. Hopper',
        first_name: 'Grace',
        last_name: 'Hopper',
      },
    );
  });

  test('one part changed: merged with the stored other, name is "first last" again', () => {
    expect(mergedAddressName(parted, { first_name: 'Augusta' })).toEqual({
      name: 'Augusta Lovelace',
      first_name: 'Augusta',
      last_name: 'Lovelace',
    });
  });

  test('both parts cleared: the stored name stays', () => {
    expect(mergedAddressName(parted, { first_name: null, last_name: null })).toEqual(named);
  });

  test('a merged address with one part only → 400 parameter_missing naming the other', () => {
    expect(missingParam(() => mergedAddressName(named, { first_name: 'Ada' }))).toBe('last_name');
    expect(missingParam(() => mergedAddressName(parted, { last_name: null }))).toBe('last_name');
    expect(missingParam(() => mergedAddressName(named, { name: 'Ada', last_name: 'King' }))).toBe(
      'first_name',
    );
  });
});
