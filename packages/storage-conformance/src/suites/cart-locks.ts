import type { Storage } from '@cartwright/core/storage';
import { describe, expect, it } from 'vitest';
import { makeCart, makeCartItem, makeCustomer, makePayment, newScope } from '../fixtures';
import type { SuiteContext } from '../suite-context';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A promise and the function that resolves it. */
function signal(): { promise: Promise<void>; fire: () => void } {
  let fire: () => void = () => {};
  const promise = new Promise<void>((resolve) => {
    fire = resolve;
  });
  return { promise, fire };
}

/**
 * The locks cart writes run under (docs/contract.md#cart-concurrency): a locked cart read waits for the
 * holder of the lock and then reads everything it committed — items and checkout attempts
 * included, not only the cart's own row — and `lockCustomer` serialises the writers that choose a
 * customer's active cart. Two storages (connections) on one database when the target shares one,
 * else two transactions on one storage.
 */
export function cartLocksSuite(ctx: SuiteContext): void {
  const twoStorages = () => ctx.openStorages(ctx.options.sharedDatabase ? 2 : 1);
  const second = (storages: Storage[]) => storages[1 % storages.length]!;

  describe('cart locks', () => {
    it('a locked cart read waits for the holder, then returns the items and the checkout attempt it committed', async () => {
      const scope = newScope();
      const cart = makeCart(scope, { items: [] });
      cart.items = [makeCartItem(cart.id, 'var_first', { created_at: 1 })];
      await ctx.tx((tx) => tx.carts.insert(cart));
      const pool = await twoStorages();
      try {
        const locked = signal();
        let committedAt = 0;
        const holder = pool.storages[0]!.transaction(async (tx) => {
          expect(await tx.carts.get(scope, cart.id, { forUpdate: true })).toMatchObject({
            items: [{ variant_id: 'var_first' }],
            open_checkout_payment_id: null,
          });
          await tx.carts.insertItem(scope, makeCartItem(cart.id, 'var_added', { created_at: 2 }));
          await tx.carts.updateItem(scope, cart.id, cart.items[0]!.id, { quantity: 7, updated_at: 3 });
          await tx.orders.insertPayment(makePayment(scope, null, { id: 'pay_attempt', cart_id: cart.id }));
          locked.fire();
          await sleep(300);
          committedAt = Date.now();
        });
        await locked.promise;
        const waiter = second(pool.storages).transaction(async (tx) => {
          const read = await tx.carts.get(scope, cart.id, { forUpdate: true });
          return { read, at: Date.now() };
        });
        await holder;
        const { read, at } = await waiter;
        expect(at).toBeGreaterThanOrEqual(committedAt);
        expect(read?.items.map((item) => [item.variant_id, item.quantity])).toEqual([
          ['var_first', 7],
          ['var_added', 1],
        ]);
        expect(read?.open_checkout_payment_id).toBe('pay_attempt');
      } finally {
        await pool.close();
      }
    });

    it('the open checkout attempt is a pending payment of the cart without an order; a settled one is not', async () => {
      const scope = newScope();
      const cart = makeCart(scope);
      const other = makeCart(scope);
      await ctx.tx(async (tx) => {
        await tx.carts.insert(cart);
        await tx.carts.insert(other);
        await tx.orders.insertPayment(makePayment(scope, null, { id: 'pay_other', cart_id: other.id }));
        await tx.orders.insertPayment(makePayment(scope, null, { id: 'pay_open', cart_id: cart.id }));
      });
      const openOf = (id: string) =>
        ctx.tx(async (tx) => (await tx.carts.get(scope, id, { forUpdate: true }))?.open_checkout_payment_id);
      expect(await openOf(cart.id)).toBe('pay_open');
      expect(await openOf(other.id)).toBe('pay_other');
      await ctx.tx((tx) =>
        tx.orders.updatePayment(
          scope,
          'pay_open',
          { status: 'failed', updated_at: 2 },
          { expect_status: 'pending' },
        ),
      );
      expect(await openOf(cart.id)).toBeNull();
      expect(await openOf(other.id)).toBe('pay_other');
      // A plain read does not look the attempt up.
      expect(await ctx.read((r) => r.carts.get(scope, other.id))).not.toHaveProperty(
        'open_checkout_payment_id',
      );
    });

    it('lockCustomer waits for the holder: the active cart it gave the customer is found after the lock', async () => {
      const scope = newScope();
      const customer = makeCustomer(scope);
      await ctx.tx((tx) => tx.customers.insert(customer));
      const cart = makeCart(scope, { customer_id: customer.id });
      const pool = await twoStorages();
      try {
        const locked = signal();
        const holder = pool.storages[0]!.transaction(async (tx) => {
          await tx.carts.lockCustomer(scope, customer.id);
          expect(await tx.carts.getActive(scope, { customer_id: customer.id })).toBeNull();
          await tx.carts.insert(cart);
          locked.fire();
          await sleep(300);
        });
        await locked.promise;
        const waiter = second(pool.storages).transaction(async (tx) => {
          await tx.carts.lockCustomer(scope, customer.id);
          return tx.carts.getActive(scope, { customer_id: customer.id });
        });
        await holder;
        expect((await waiter)?.id).toBe(cart.id);
        // A customer without a row locks nothing (and does not fail).
        await ctx.tx((tx) => tx.carts.lockCustomer(scope, 'cus_missing'));
      } finally {
        await pool.close();
      }
    });
  });
}
