import { CommerceError } from '@cartwright/core';
import { afterEach, describe, expect, test } from 'vitest';
import { createTestEngine, type TestEngine } from './create-test-engine';

/**
 * The address book's partial PATCH at engine level (decisions §22, docs/contract.md#addresses): the
 * stored address merged with the body must satisfy the create rules; a refused PATCH writes and
 * emits nothing, an accepted one emits `customer.updated` once.
 */

let t: TestEngine | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const address = { line1: '1 Main St', city: 'Paris', postal_code: '75001', country: 'FR' };

async function missingParam(promise: Promise<unknown>): Promise<string | undefined> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(CommerceError.is(error), String(error)).toBe(true);
  expect((error as CommerceError).code).toBe('parameter_missing');
  return (error as CommerceError).param;
}

describe('saved addresses: partial PATCH (decisions §22)', () => {
  test('a merged address without one name part is refused and changes nothing; a valid one changes only what it names', async () => {
    t = await createTestEngine();
    const c = await t.fixtures.customer();
    const saved = await t.store.customers.createAddress(c.id, {
      ...address,
      first_name: 'Ada',
      last_name: 'Lovelace',
      label: 'Maison',
      type: 'billing',
      is_default: true,
    });
    expect(saved).toMatchObject({
      name: 'Ada Lovelace',
      first_name: 'Ada',
      last_name: 'Lovelace',
      label: 'Maison',
    });

    t.events.clear();
    expect(await missingParam(t.store.customers.updateAddress(c.id, saved.id, { last_name: null }))).toBe(
      'last_name',
    );
    expect(
      await missingParam(t.store.customers.updateAddress(c.id, saved.id, { name: 'Ada', first_name: 'Ada' })),
    ).toBe('last_name');
    expect((await t.store.customers.listAddresses(c.id)).data).toEqual([saved]);
    expect(t.events.types()).toEqual([]);

    const moved = await t.store.customers.updateAddress(c.id, saved.id, { city: 'Lyon', last_name: 'King' });
    expect(moved).toEqual({ ...saved, city: 'Lyon', last_name: 'King', name: 'Ada King' });
    expect(t.events.types()).toEqual(['customer.updated']);
    // An update that repeats the address writes and emits nothing.
    t.events.clear();
    expect(await t.store.customers.updateAddress(c.id, saved.id, { city: 'Lyon' })).toEqual(moved);
    expect(t.events.types()).toEqual([]);
  });
});
