import { CommerceError } from '@cartwright/core';
import { createTestEngine, type TestEngine } from '@cartwright/testing';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { createLoyalty } from '../src/loyalty';

let t: TestEngine;
beforeEach(async () => {
  t = await createTestEngine(); // SQLite :memory:, fake clock, sequential ids, fake card provider
});
afterEach(async () => {
  await t.close();
});

/** The wire `code` a promise is rejected with. */
async function codeOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof CommerceError)) throw new Error(`expected a CommerceError, got ${String(error)}`);
  return error.code;
}

test('a whole checkout: 2 × 1000 → order 1001, paid, 2000 USD', async () => {
  const { variant } = await t.fixtures.product({ price: 1000 });
  const cart = await t.fixtures.cart([{ variant_id: variant.id, quantity: 2 }]);
  const order = await t.checkout(cart.id); // fake card pm_card_visa

  expect(order).toMatchObject({ number: 1001, status: 'confirmed', payment_status: 'paid' });
  expect(order.total).toEqual({ amount: 2000, currency: 'USD' });
});

test('a discount code takes 10 % off', async () => {
  const { variant } = await t.fixtures.product({ price: 1000 });
  const cart = await t.fixtures.cart([{ variant_id: variant.id, quantity: 2 }]);
  await t.store.discounts.create({
    name: 'ten',
    code: 'TEN',
    type: 'code',
    value_type: 'percentage',
    value: 10,
  });

  const priced = await t.store.carts.applyDiscount(cart.id, { code: 'TEN' });
  expect(priced.summary.discount_total.amount).toBe(200);
  expect((await t.checkout(cart.id)).total.amount).toBe(1800);
});

test('a declined card leaves no order and the cart active', async () => {
  const { variant } = await t.fixtures.product({ price: 500 });
  const cart = await t.fixtures.cart([{ variant_id: variant.id }]);

  expect(await codeOf(t.checkout(cart.id, { payment_method_id: 'pm_card_chargeDeclined' }))).toBe(
    'payment_failed',
  );
  expect((await t.store.orders.list()).total_count).toBe(0);
  expect((await t.store.carts.get(cart.id)).status).toBe('active');
});

test('the last unit cannot be sold twice', async () => {
  const { variant } = await t.fixtures.product({ price: 900, on_hand: 1 });
  const first = await t.fixtures.cart([{ variant_id: variant.id }]);
  const second = await t.fixtures.cart([{ variant_id: variant.id }]);

  await t.checkout(first.id);
  expect(await codeOf(t.checkout(second.id))).toBe('insufficient_inventory');
});

test('a customer token expires after 24 h, without sleeping', async () => {
  const customer = await t.fixtures.customer();
  const { token } = await t.store.customers.issueToken(customer.id);
  expect((await t.engine.auth.authenticateCustomerToken(t.scope, token)).customer_id).toBe(customer.id);

  t.clock.advance('25h');
  expect(await codeOf(Promise.resolve(t.engine.auth.authenticateCustomerToken(t.scope, token)))).toBe(
    'invalid_customer_token',
  );
});

test('your own code on top of the engine: loyalty points from order.confirmed', async () => {
  const loyalty = createLoyalty(t.engine);
  const customer = await t.fixtures.customer();
  const { variant } = await t.fixtures.product({ price: 1250 });
  const cart = await t.fixtures.cart([{ variant_id: variant.id, quantity: 3 }], { customer_id: customer.id });

  await t.checkout(cart.id); // 3750 paid → confirmed → 37 points
  expect(loyalty.pointsOf(customer.id)).toBe(37);
  expect(t.events.types()).toContain('order.confirmed');

  const guest = await t.fixtures.cart([{ variant_id: variant.id }]);
  await t.checkout(guest.id);
  expect(loyalty.pointsOf(customer.id)).toBe(37);
  loyalty.stop();
});
