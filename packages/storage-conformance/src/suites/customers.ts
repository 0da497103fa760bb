import { describe, expect, it } from 'vitest';
import { expectCommerceError } from '../expect-error';
import { makeAddress, makeCustomer, makeOrder, newScope, otherMode, RICH_METADATA } from '../fixtures';
import type { SuiteContext } from '../suite-context';

/** Customers (case-insensitive unique e-mail), their addresses, and the order sums their totals derive from. */
export function customersSuite(ctx: SuiteContext): void {
  describe('customers', () => {
    it('round-trips a customer; finds by e-mail case-insensitively; lists the customers of the scope; scope isolation', async () => {
      const scope = newScope();
      const customer = makeCustomer(scope, {
        email: 'Ada.L@Example.COM',
        tags: ['vip', 'b2b'],
        metadata: RICH_METADATA,
      });
      const other = makeCustomer(scope);
      await ctx.tx(async (tx) => {
        await tx.customers.insert(customer);
        await tx.customers.insert(other);
      });
      expect(await ctx.read((r) => r.customers.get(scope, customer.id))).toEqual(customer);
      expect(await ctx.read((r) => r.customers.get(scope, { email: 'ada.l@example.com' }))).toEqual(customer);
      expect(
        await ctx.read((r) => r.customers.get(otherMode(scope), { email: 'ada.l@example.com' })),
      ).toBeNull();
      expect(await ctx.read((r) => r.customers.get(otherMode(scope), customer.id))).toBeNull();
      const listed = await ctx.read((r) =>
        r.customers.list(scope, {}, { limit: 10, sort: 'created_at', order: 'asc' }),
      );
      expect(listed.data.map((c) => c.id).sort()).toEqual([customer.id, other.id].sort());
      expect(listed.data.find((c) => c.id === customer.id)).toEqual(customer);
      expect(
        (
          await ctx.read((r) =>
            r.customers.list(otherMode(scope), {}, { limit: 10, sort: 'created_at', order: 'asc' }),
          )
        ).data,
      ).toEqual([]);
    });

    it('e-mail is unique per scope case-insensitively → duplicate_email (param email), also on update', async () => {
      const scope = newScope();
      const first = makeCustomer(scope, { email: 'dup@example.com' });
      await ctx.tx((tx) => tx.customers.insert(first));
      await expectCommerceError(
        ctx.tx((tx) => tx.customers.insert(makeCustomer(scope, { email: 'DUP@example.com' }))),
        'duplicate_email',
        'email',
      );
      await ctx.tx((tx) => tx.customers.insert(makeCustomer(otherMode(scope), { email: 'dup@example.com' })));
      const second = makeCustomer(scope);
      await ctx.tx((tx) => tx.customers.insert(second));
      await expectCommerceError(
        ctx.tx((tx) => tx.customers.update(scope, second.id, { email: 'Dup@Example.com', updated_at: 2 })),
        'duplicate_email',
        'email',
      );
      expect(await ctx.tx((tx) => tx.customers.delete(scope, first.id, 3))).toBe(true);
      expect(await ctx.tx((tx) => tx.customers.delete(scope, first.id, 3))).toBe(false);
      expect(await ctx.read((r) => r.customers.get(scope, first.id))).toBeNull();
      expect(await ctx.read((r) => r.customers.get(scope, { email: 'dup@example.com' }))).toBeNull();
      await ctx.tx((tx) => tx.customers.insert(makeCustomer(scope, { email: 'dup@example.com' })));
    });

    it('update patches columns and keeps the e-mail lookup and search in step', async () => {
      const scope = newScope();
      const customer = makeCustomer(scope, {
        email: 'old@example.com',
        first_name: 'Grace',
        last_name: 'Hopper',
      });
      await ctx.tx((tx) => tx.customers.insert(customer));
      const updated = await ctx.tx((tx) =>
        tx.customers.update(scope, customer.id, {
          email: 'New@Example.com',
          last_name: 'Brewster',
          status: 'disabled',
          tags: ['navy'],
          metadata: { rank: 'admiral' },
          updated_at: 9,
        }),
      );
      expect(updated).toEqual({
        ...customer,
        email: 'New@Example.com',
        last_name: 'Brewster',
        status: 'disabled',
        tags: ['navy'],
        metadata: { rank: 'admiral' },
        updated_at: 9,
      });
      expect(await ctx.read((r) => r.customers.get(scope, { email: 'old@example.com' }))).toBeNull();
      expect((await ctx.read((r) => r.customers.get(scope, { email: 'new@example.com' })))?.id).toBe(
        customer.id,
      );
      const search = async (q: string) =>
        (
          await ctx.read((r) =>
            r.customers.list(scope, { q }, { limit: 10, sort: 'created_at', order: 'desc' }),
          )
        ).data.map((c) => c.id);
      expect(await search('brewster')).toEqual([customer.id]);
      expect(await search('hopper')).toEqual([]);
      expect(await search('NEW@')).toEqual([customer.id]);
      expect(
        await ctx.tx((tx) => tx.customers.update(scope, 'cus_missing', { first_name: 'x', updated_at: 1 })),
      ).toBeNull();
    });

    it('list filters: q (e-mail or name, partial, case-insensitive), status, tag', async () => {
      const scope = newScope();
      const a = makeCustomer(scope, {
        email: 'alice@shop.test',
        first_name: 'Alice',
        last_name: 'Smith',
        tags: ['vip'],
        created_at: 1,
      });
      const b = makeCustomer(scope, {
        email: 'bob@shop.test',
        first_name: 'Bob',
        last_name: 'Jones',
        status: 'disabled',
        created_at: 2,
      });
      const c = makeCustomer(scope, {
        email: 'carol@else.test',
        first_name: 'Carol',
        last_name: 'Smithers',
        tags: ['vip', 'x'],
        created_at: 3,
      });
      await ctx.tx(async (tx) => {
        for (const customer of [a, b, c]) await tx.customers.insert(customer);
      });
      const ids = async (filter: { q?: string; status?: 'active' | 'disabled'; tag?: string }) =>
        (
          await ctx.read((r) =>
            r.customers.list(scope, filter, { limit: 10, sort: 'created_at', order: 'asc' }),
          )
        ).data.map((customer) => customer.id);
      expect(await ids({})).toEqual([a.id, b.id, c.id]);
      expect(await ids({ q: 'SMITH' })).toEqual([a.id, c.id]);
      expect(await ids({ q: 'shop.test' })).toEqual([a.id, b.id]);
      expect(await ids({ q: 'alice smith' })).toEqual([a.id]);
      expect(await ids({ status: 'disabled' })).toEqual([b.id]);
      expect(await ids({ tag: 'vip' })).toEqual([a.id, c.id]);
      expect(await ids({ tag: 'vip', q: 'carol' })).toEqual([c.id]);
      expect(await ids({ tag: 'nope' })).toEqual([]);
    });

    it('orders.sumByCustomer sums orders per customer and status, drafts and cancelled included, in its scope only', async () => {
      const scope = newScope();
      const customer = makeCustomer(scope);
      const other = makeCustomer(scope);
      await ctx.tx(async (tx) => {
        await tx.customers.insert(customer);
        await tx.customers.insert(other);
        const base = { customer_id: customer.id };
        await tx.orders.insert(makeOrder(scope, 1001, { ...base, status: 'pending', paid_total: 0 }));
        await tx.orders.insert(
          makeOrder(scope, 1002, { ...base, status: 'completed', paid_total: 5000, refunded_total: 1200 }),
        );
        await tx.orders.insert(
          makeOrder(scope, 1005, { ...base, status: 'completed', paid_total: 700, refunded_total: 0 }),
        );
        await tx.orders.insert(makeOrder(scope, 1003, { ...base, status: 'draft', paid_total: 0 }));
        await tx.orders.insert(
          makeOrder(scope, 1004, { ...base, status: 'cancelled', paid_total: 300, refunded_total: 300 }),
        );
        await tx.orders.insert(
          makeOrder(scope, 1006, { customer_id: other.id, status: 'confirmed', paid_total: 10 }),
        );
        await tx.orders.insert(
          makeOrder(scope, 1007, { customer_id: null, status: 'confirmed', paid_total: 10 }),
        );
        await tx.orders.insert(
          makeOrder(otherMode(scope), 1001, { ...base, status: 'completed', paid_total: 999 }),
        );
      });
      const sums = await ctx.read((r) => r.orders.sumByCustomer(scope, [customer.id, 'cus_none']));
      const byStatus = (a: { status: string }, b: { status: string }) => a.status.localeCompare(b.status);
      expect([...sums].sort(byStatus)).toEqual([
        { customer_id: customer.id, status: 'cancelled', count: 1, paid_total: 300, refunded_total: 300 },
        { customer_id: customer.id, status: 'completed', count: 2, paid_total: 5700, refunded_total: 1200 },
        { customer_id: customer.id, status: 'draft', count: 1, paid_total: 0, refunded_total: 0 },
        { customer_id: customer.id, status: 'pending', count: 1, paid_total: 0, refunded_total: 0 },
      ]);
      expect(await ctx.read((r) => r.orders.sumByCustomer(scope, [other.id]))).toEqual([
        { customer_id: other.id, status: 'confirmed', count: 1, paid_total: 10, refunded_total: 0 },
      ]);
      expect(await ctx.read((r) => r.orders.sumByCustomer(otherMode(scope), [other.id]))).toEqual([]);
      expect(await ctx.read((r) => r.orders.sumByCustomer(scope, []))).toEqual([]);
    });
  });

  describe('customer addresses', () => {
    it('inserts, reads (per customer), lists oldest first, updates, clears defaults, deletes', async () => {
      const scope = newScope();
      const customer = makeCustomer(scope);
      const other = makeCustomer(scope);
      const first = makeAddress(scope, customer.id, {
        created_at: 1,
        is_default: true,
        first_name: 'Ada',
        last_name: 'Lovelace',
        label: 'Home',
        receiver_name: 'Lady Lovelace',
      });
      const second = makeAddress(scope, customer.id, { created_at: 2, type: 'shipping', line2: 'Flat 2' });
      const foreign = makeAddress(scope, other.id, { created_at: 0 });
      await ctx.tx(async (tx) => {
        await tx.customers.insert(customer);
        await tx.customers.insert(other);
        for (const address of [second, first, foreign]) await tx.customers.insertAddress(address);
      });
      expect(
        await ctx.read((r) => r.customers.listAddresses(scope, [customer.id], { id: first.id })),
      ).toEqual([first]);
      expect(await ctx.read((r) => r.customers.listAddresses(scope, [other.id], { id: first.id }))).toEqual(
        [],
      );
      expect(
        await ctx.read((r) => r.customers.listAddresses(otherMode(scope), [customer.id], { id: first.id })),
      ).toEqual([]);
      expect(
        await ctx.read((r) => r.customers.listAddresses(scope, [other.id, customer.id], { id: second.id })),
      ).toEqual([second]);
      expect(await ctx.read((r) => r.customers.listAddresses(scope, [customer.id]))).toEqual([first, second]);
      const both = await ctx.read((r) => r.customers.listAddresses(scope, [customer.id, other.id]));
      expect(both.map((a) => a.id).sort()).toEqual([first.id, second.id, foreign.id].sort());
      expect(await ctx.read((r) => r.customers.listAddresses(scope, []))).toEqual([]);
      expect(await ctx.read((r) => r.customers.listAddresses(otherMode(scope), [customer.id]))).toEqual([]);
      const updated = await ctx.tx((tx) =>
        tx.customers.updateAddress(scope, customer.id, second.id, {
          is_default: true,
          city: 'Paris',
          line2: null,
          first_name: 'Zoë',
          last_name: 'Durand',
          label: 'Maison',
          receiver_name: 'Zoë Durand',
          updated_at: 5,
        }),
      );
      const renamed = {
        first_name: 'Zoë',
        last_name: 'Durand',
        label: 'Maison',
        receiver_name: 'Zoë Durand',
      };
      expect(updated).toEqual({
        ...second,
        ...renamed,
        is_default: true,
        city: 'Paris',
        line2: null,
        updated_at: 5,
      });
      expect(
        await ctx.read((r) => r.customers.listAddresses(scope, [customer.id], { id: second.id })),
      ).toEqual([updated]);
      expect(
        await ctx.tx((tx) =>
          tx.customers.updateAddress(scope, other.id, second.id, { city: 'x', updated_at: 6 }),
        ),
      ).toBeNull();
      await ctx.tx((tx) => tx.customers.clearDefaultAddress(scope, customer.id, second.id));
      const list = await ctx.read((r) => r.customers.listAddresses(scope, [customer.id]));
      expect(list.map((a) => [a.id, a.is_default])).toEqual([
        [first.id, false],
        [second.id, true],
      ]);
      expect(await ctx.tx((tx) => tx.customers.deleteAddress(scope, other.id, first.id))).toBe(false);
      expect(await ctx.tx((tx) => tx.customers.deleteAddress(scope, customer.id, first.id))).toBe(true);
      expect(await ctx.read((r) => r.customers.listAddresses(scope, [customer.id]))).toHaveLength(1);
    });
  });
}
