import { CommerceError } from '@cartwright/core';
import { afterEach, describe, expect, test } from 'vitest';
import { createTestEngine, type TestEngine } from './create-test-engine';
import { createScriptedProvider, type ScriptedProvider } from './scripted-provider.test-support';

/**
 * docs/payments.md#stale-attempts: a checkout whose process died after recording its attempt
 * leaves the attempt open; a retry of that cart's checkout settles it with the provider at once
 * once it is stale (claimed `ATTEMPT_LEASE_MS` = 65 s ago or more) instead of answering 409.
 */

let t: TestEngine;
let acme: ScriptedProvider;

async function setup() {
  acme = createScriptedProvider('acme');
  t = await createTestEngine({ providers: [acme] });
}

afterEach(async () => {
  await t?.close();
});

async function errorOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => null,
    (e: unknown) => e,
  );
}

async function expectCode(promise: Promise<unknown>, code: string) {
  const error = await errorOf(promise);
  expect(CommerceError.is(error), String(error)).toBe(true);
  expect((error as CommerceError).code).toBe(code);
}

async function cartOf(price: number, quantity: number) {
  const { variant } = await t.fixtures.product({ price, on_hand: 10 });
  const cart = await t.fixtures.cart([{ variant_id: variant.id, quantity }]);
  return { cart, inventoryId: variant.inventory.id };
}

const pay = (cartId: string) => t.checkout(cartId, { payment_provider: 'acme' });

describe('checkout: a retry settles a stale attempt', () => {
  test('charged, then the process died: 409 within the lease, then the retry answers with the one paid order', async () => {
    await setup();
    const { cart, inventoryId } = await cartOf(1500, 2);
    acme.charge = 'charge_then_throw';
    expect(CommerceError.is(await errorOf(pay(cart.id)))).toBe(false);
    acme.charge = 'succeed';
    expect((await t.store.carts.get(cart.id)).status).toBe('active');

    t.clock.advance('64s');
    await expectCode(pay(cart.id), 'cart_not_active');
    t.clock.advance('1s');
    const order = await pay(cart.id);
    expect(order).toMatchObject({ status: 'confirmed', payment_status: 'paid', total: { amount: 3000 } });
    expect(acme.charges).toHaveLength(1);
    expect(order.payments[0]?.provider_id).toBe(acme.charges[0]?.provider_id);
    expect(acme.calls.filter((c) => c.startsWith('lookup:'))).toEqual([`lookup:checkout_${cart.id}_1`]);
    expect((await t.store.carts.get(cart.id)).status).toBe('completed');
    expect((await t.store.inventory.get(inventoryId)).reserved).toBe(2);
    const report = await t.engine.payments.reconcile({ olderThanMs: 0 });
    expect(report.results).toEqual([]);
  });

  test('never reached the provider: the retry releases the attempt and pays with a new one', async () => {
    await setup();
    const { cart, inventoryId } = await cartOf(1000, 3);
    acme.charge = 'throw';
    await errorOf(pay(cart.id));
    acme.charge = 'succeed';
    expect((await t.store.inventory.get(inventoryId)).reserved).toBe(3);

    t.clock.advance('65s');
    const order = await pay(cart.id);
    expect(order.payment_status).toBe('paid');
    expect(acme.charges.map((c) => c.idempotency_key)).toEqual([`checkout_${cart.id}_2`]);
    expect((await t.store.inventory.get(inventoryId)).reserved).toBe(3);
    const first = await t.engine.payments.reconcile({ olderThanMs: 0 });
    expect(first.results).toEqual([]);
  });

  test('the provider cannot be asked: the retry fails, the attempt stays open with its units', async () => {
    await setup();
    const { cart, inventoryId } = await cartOf(1200, 1);
    acme.charge = 'charge_then_throw';
    await errorOf(pay(cart.id));
    t.clock.advance('65s');
    acme.lookup = 'throw';
    expect(((await errorOf(pay(cart.id))) as Error).message).toBe('provider unreachable');
    expect((await t.store.inventory.get(inventoryId)).reserved).toBe(1);
    expect((await t.store.carts.get(cart.id)).status).toBe('active');
    acme.lookup = 'state';
    expect((await pay(cart.id)).payment_status).toBe('paid');
    expect(acme.charges).toHaveLength(1);
  });

  test('two concurrent retries: one order, one charge; the other answers the same order or 409', async () => {
    await setup();
    const { cart, inventoryId } = await cartOf(900, 2);
    acme.charge = 'charge_then_throw';
    await errorOf(pay(cart.id));
    acme.charge = 'succeed';
    t.clock.advance('65s');
    // Both retries have asked the provider before either settles.
    let waiting = 0;
    let release: () => void = () => {};
    const together = new Promise<void>((resolve) => {
      release = resolve;
    });
    acme.afterLookup = () => {
      waiting += 1;
      if (waiting >= 2) release();
      return together;
    };
    const answers = await Promise.allSettled([pay(cart.id), pay(cart.id)]);
    const ids = new Set<string>();
    for (const a of answers) {
      if (a.status === 'fulfilled') ids.add(a.value.id);
      else expect((a.reason as CommerceError).code).toBe('cart_not_active');
    }
    expect(ids.size).toBe(1);
    expect(acme.charges).toHaveLength(1);
    const orders = await t.store.orders.list({ limit: 100 });
    expect(orders.data.filter((o) => o.payments.some((p) => p.provider === 'acme'))).toHaveLength(1);
    expect((await t.store.inventory.get(inventoryId)).reserved).toBe(2);
  });
});
