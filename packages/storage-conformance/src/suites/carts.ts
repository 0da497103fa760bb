import { describe, expect, it } from 'vitest';
import { makeCart, makeCartItem, newId, newScope, otherMode, RICH_METADATA } from '../fixtures';
import type { SuiteContext } from '../suite-context';

/** Carts with items, active-cart lookups and the status compare-and-set. */
export function cartsSuite(ctx: SuiteContext): void {
  describe('carts', () => {
    it('round-trips a cart with items (addresses, codes in order, metadata); forUpdate reads inside a transaction', async () => {
      const scope = newScope();
      const id = newId('cart');
      const cart = makeCart(scope, {
        id,
        customer_id: 'cus_1',
        email: 'a@b.test',
        shipping_address: { name: 'Zoë', line1: '1 Rue', city: 'Paris', postal_code: '75001', country: 'FR' },
        billing_address: { name: 'Zoë', company: 'ACME' },
        shipping_method_id: 'ship_1',
        discount_codes: ['ZETA', 'alpha', 'Mid'],
        metadata: RICH_METADATA,
        items: [
          makeCartItem(id, 'var_b', { quantity: 3, created_at: 1, metadata: { gift: true } }),
          makeCartItem(id, 'var_a', { created_at: 2 }),
        ],
      });
      await ctx.tx((tx) => tx.carts.insert(cart));
      expect(await ctx.read((r) => r.carts.get(scope, id))).toEqual(cart);
      expect(await ctx.tx((tx) => tx.carts.get(scope, id, { forUpdate: true }))).toEqual({
        ...cart,
        open_checkout_payment_id: null,
      });
      expect(await ctx.read((r) => r.carts.get(otherMode(scope), id))).toBeNull();
      expect(await ctx.read((r) => r.carts.get(scope, 'cart_missing'))).toBeNull();
    });

    it('getActive returns the newest active cart of a session or of a customer (except one)', async () => {
      const scope = newScope();
      const old = makeCart(scope, { session_id: 'sess_1', customer_id: 'cus_1', created_at: 1 });
      const newer = makeCart(scope, { session_id: 'sess_1', customer_id: 'cus_1', created_at: 2 });
      const done = makeCart(scope, {
        session_id: 'sess_1',
        customer_id: 'cus_1',
        status: 'completed',
        created_at: 3,
      });
      await ctx.tx(async (tx) => {
        for (const cart of [old, newer, done]) await tx.carts.insert(cart);
      });
      expect((await ctx.read((r) => r.carts.getActive(scope, { session_id: 'sess_1' })))?.id).toBe(newer.id);
      expect(await ctx.read((r) => r.carts.getActive(scope, { session_id: 'sess_none' }))).toBeNull();
      expect(await ctx.read((r) => r.carts.getActive(otherMode(scope), { session_id: 'sess_1' }))).toBeNull();
      expect((await ctx.read((r) => r.carts.getActive(scope, { customer_id: 'cus_1' })))?.id).toBe(newer.id);
      expect(
        (await ctx.read((r) => r.carts.getActive(scope, { customer_id: 'cus_1', except_cart_id: newer.id })))
          ?.id,
      ).toBe(old.id);
      expect(await ctx.read((r) => r.carts.getActive(otherMode(scope), { customer_id: 'cus_1' }))).toBeNull();
    });

    it('update patches cart columns (addresses to null, codes replaced in order)', async () => {
      const scope = newScope();
      const cart = makeCart(scope, { shipping_address: { city: 'Oslo' }, discount_codes: ['A'] });
      await ctx.tx((tx) => tx.carts.insert(cart));
      const updated = await ctx.tx((tx) =>
        tx.carts.update(scope, cart.id, {
          customer_id: 'cus_9',
          session_id: null,
          email: 'z@z.test',
          shipping_address: null,
          billing_address: { country: 'NO' },
          shipping_method_id: 'ship_9',
          discount_codes: ['B', 'A'],
          metadata: { k: 'v' },
          updated_at: 7,
        }),
      );
      const { items: _items, ...record } = cart;
      expect(updated).toEqual({
        ...record,
        customer_id: 'cus_9',
        session_id: null,
        email: 'z@z.test',
        shipping_address: null,
        billing_address: { country: 'NO' },
        shipping_method_id: 'ship_9',
        discount_codes: ['B', 'A'],
        metadata: { k: 'v' },
        updated_at: 7,
      });
      expect(
        await ctx.tx((tx) => tx.carts.update(otherMode(scope), cart.id, { email: 'x', updated_at: 8 })),
      ).toBeNull();
    });

    it('set writes the same columns as update without reading back: true, then get shows them; false elsewhere', async () => {
      const scope = newScope();
      const cart = makeCart(scope, {
        shipping_address: { city: 'Oslo' },
        discount_codes: ['A'],
        items: [],
      });
      await ctx.tx((tx) => tx.carts.insert(cart));
      const patch = {
        customer_id: 'cus_9',
        email: 'z@z.test',
        shipping_address: null,
        billing_address: { name: 'Zoë', country: 'NO' },
        shipping_method_id: 'ship_9',
        discount_codes: ['B', 'A'],
        metadata: RICH_METADATA,
        updated_at: 7,
      };
      expect(await ctx.tx((tx) => tx.carts.update(scope, cart.id, patch, { returning: false }))).toBe(true);
      expect(await ctx.read((r) => r.carts.get(scope, cart.id))).toEqual({ ...cart, ...patch });
      expect(
        await ctx.tx((tx) => tx.carts.update(scope, cart.id, { updated_at: 9 }, { returning: false })),
      ).toBe(true);
      expect(await ctx.read((r) => r.carts.get(scope, cart.id))).toEqual({
        ...cart,
        ...patch,
        updated_at: 9,
      });
      expect(
        await ctx.tx((tx) =>
          tx.carts.update(otherMode(scope), cart.id, { updated_at: 10 }, { returning: false }),
        ),
      ).toBe(false);
      expect(
        await ctx.tx((tx) =>
          tx.carts.update(scope, 'cart_missing', { updated_at: 10 }, { returning: false }),
        ),
      ).toBe(false);
      expect((await ctx.read((r) => r.carts.get(scope, cart.id)))?.updated_at).toBe(9);
    });

    it('transition is a compare-and-set: completed once, then refused; completed_at set', async () => {
      const scope = newScope();
      const cart = makeCart(scope);
      await ctx.tx((tx) => tx.carts.insert(cart));
      expect(await ctx.tx((tx) => tx.carts.transition(scope, cart.id, 'active', 'completed', 40))).toBe(true);
      expect(await ctx.tx((tx) => tx.carts.transition(scope, cart.id, 'active', 'abandoned', 41))).toBe(
        false,
      );
      expect(await ctx.read((r) => r.carts.get(scope, cart.id))).toMatchObject({
        status: 'completed',
        completed_at: 40,
        updated_at: 40,
      });
      expect(
        await ctx.tx((tx) => tx.carts.transition(otherMode(scope), cart.id, 'completed', 'active', 42)),
      ).toBe(false);
      const other = makeCart(scope);
      await ctx.tx((tx) => tx.carts.insert(other));
      expect(await ctx.tx((tx) => tx.carts.transition(scope, other.id, 'active', 'abandoned', 43))).toBe(
        true,
      );
      expect(await ctx.read((r) => r.carts.get(scope, other.id))).toMatchObject({
        status: 'abandoned',
        completed_at: null,
      });
    });

    it('items: insert keeps the order added, update and delete only within their cart', async () => {
      const scope = newScope();
      const cart = makeCart(scope);
      const other = makeCart(scope);
      await ctx.tx(async (tx) => {
        await tx.carts.insert(cart);
        await tx.carts.insert(other);
      });
      const first = makeCartItem(cart.id, 'var_1', { created_at: 5 });
      const second = makeCartItem(cart.id, 'var_2', { created_at: 6, quantity: 2 });
      await ctx.tx(async (tx) => {
        await tx.carts.insertItem(scope, first);
        await tx.carts.insertItem(scope, second);
      });
      expect((await ctx.read((r) => r.carts.get(scope, cart.id)))?.items).toEqual([first, second]);
      const updated = await ctx.tx((tx) =>
        tx.carts.updateItem(scope, cart.id, first.id, {
          quantity: 4,
          metadata: { note: 'x' },
          updated_at: 9,
        }),
      );
      expect(updated).toEqual({ ...first, quantity: 4, metadata: { note: 'x' }, updated_at: 9 });
      expect(
        await ctx.tx((tx) => tx.carts.updateItem(scope, other.id, first.id, { quantity: 1, updated_at: 9 })),
      ).toBeNull();
      expect(await ctx.tx((tx) => tx.carts.deleteItem(scope, other.id, first.id))).toBe(false);
      expect(await ctx.tx((tx) => tx.carts.deleteItem(otherMode(scope), cart.id, first.id))).toBe(false);
      expect(await ctx.tx((tx) => tx.carts.deleteItem(scope, cart.id, first.id))).toBe(true);
      expect((await ctx.read((r) => r.carts.get(scope, cart.id)))?.items).toEqual([second]);
    });
  });
}
