import type { ApiKeyRecord } from '@cartwright/core/storage';
import { describe, expect, it } from 'vitest';
import { expectCommerceError } from '../expect-error';
import {
  makeApiKey,
  makeCustomer,
  makeOrder,
  makeProduct,
  newId,
  newScope,
  otherMode,
  RICH_METADATA,
} from '../fixtures';
import type { SuiteContext } from '../suite-context';

/** Organizations, stores, API keys and customer tokens. */
export function accountsSuite(ctx: SuiteContext): void {
  describe('organizations and stores', () => {
    it('inserts, reads (get() = the oldest), updates an organization; unknown id → null', async () => {
      const first = {
        id: newId('org'),
        name: 'Acme',
        plan: 'free',
        billing_email: null,
        metadata: RICH_METADATA,
      };
      await ctx.tx(async (tx) => {
        await tx.organizations.insert({ ...first, created_at: 1, updated_at: 1 });
        await tx.organizations.insert({
          ...first,
          id: newId('org'),
          name: 'Later',
          created_at: 2,
          updated_at: 2,
        });
      });
      const read = await ctx.read((r) => r.organizations.get(first.id));
      expect(read).toEqual({ ...first, created_at: 1, updated_at: 1 });
      expect((await ctx.read((r) => r.organizations.get()))?.id).toBe(first.id);
      const updated = await ctx.tx((tx) =>
        tx.organizations.update(first.id, {
          name: 'Acme Inc',
          billing_email: 'bill@acme.test',
          metadata: {},
          updated_at: 5,
        }),
      );
      expect(updated).toMatchObject({
        name: 'Acme Inc',
        billing_email: 'bill@acme.test',
        metadata: {},
        plan: 'free',
        updated_at: 5,
      });
      expect(
        await ctx.tx((tx) => tx.organizations.update('org_missing', { name: 'x', updated_at: 6 })),
      ).toBeNull();
      expect(await ctx.read((r) => r.organizations.get('org_missing'))).toBeNull();
    });

    it('round-trips a store with tax_rate 8.875 and prices_include_tax; update replaces metadata', async () => {
      const store = {
        id: newId('store'),
        organization_id: newId('org'),
        name: 'Main',
        slug: newId('main'),
        currency: 'USD',
        timezone: 'America/New_York',
        prices_include_tax: true,
        tax_rate: 8.875,
        return_window_days: 14 as number | null,
        metadata: { nested: { a: [1, 2] } },
        created_at: 10,
        updated_at: 10,
      };
      await ctx.tx((tx) => tx.stores.insert(store));
      expect(await ctx.read((r) => r.stores.get(store.id))).toEqual(store);
      expect(await ctx.read((r) => r.stores.get())).not.toBeNull();
      const updated = await ctx.tx((tx) =>
        tx.stores.update(store.id, {
          tax_rate: 0.1 + 0.2,
          prices_include_tax: false,
          return_window_days: null,
          metadata: { only: 1 },
          updated_at: 11,
        }),
      );
      expect(updated).toMatchObject({
        tax_rate: 0.1 + 0.2,
        prices_include_tax: false,
        return_window_days: null,
        metadata: { only: 1 },
      });
      expect(
        await ctx.tx((tx) => tx.stores.update('store_missing', { name: 'x', updated_at: 1 })),
      ).toBeNull();
    });

    it('slug (decisions §22): unique across stores (duplicate_slug), found by get({ slug }), written by update; claimSlug sets it only while unset', async () => {
      const base = {
        organization_id: newId('org'),
        name: 'Same Name',
        currency: 'USD',
        timezone: 'UTC',
        prices_include_tax: false,
        tax_rate: 0,
        return_window_days: null,
        metadata: {},
        created_at: 10,
        updated_at: 10,
      };
      const taken = newId('slug').toLowerCase();
      const a = { ...base, id: newId('store'), slug: taken };
      const b = { ...base, id: newId('store'), slug: null };
      await ctx.tx(async (tx) => {
        await tx.stores.insert(a);
        await tx.stores.insert(b);
      });
      expect(await ctx.read((r) => r.stores.get({ slug: taken }))).toEqual(a);
      expect(await ctx.read((r) => r.stores.get({ slug: `${taken}-nope` }))).toBeNull();

      // The index is global: another store's slug is refused, on insert, update and claim.
      await expectCommerceError(
        ctx.tx((tx) => tx.stores.insert({ ...base, id: newId('store'), slug: taken })),
        'duplicate_slug',
        'slug',
      );
      await expectCommerceError(
        ctx.tx((tx) => tx.stores.update(b.id, { slug: taken, updated_at: 11 })),
        'duplicate_slug',
        'slug',
      );
      await expectCommerceError(
        ctx.tx((tx) => tx.stores.claimSlug(b.id, taken)),
        'duplicate_slug',
        'slug',
      );
      expect((await ctx.read((r) => r.stores.get(b.id)))?.slug).toBeNull();

      // Claimed once (updated_at untouched); a second claim keeps the first slug.
      const mine = `${taken}-b`;
      expect(await ctx.tx((tx) => tx.stores.claimSlug(b.id, mine))).toEqual({ ...b, slug: mine });
      expect(await ctx.tx((tx) => tx.stores.claimSlug(b.id, `${taken}-c`))).toEqual({ ...b, slug: mine });
      expect(await ctx.tx((tx) => tx.stores.claimSlug('store_missing', `${taken}-d`))).toBeNull();

      // update writes a slug (core never changes a set one; the port allows it).
      const moved = `${taken}-e`;
      expect(await ctx.tx((tx) => tx.stores.update(b.id, { slug: moved, updated_at: 12 }))).toMatchObject({
        slug: moved,
        updated_at: 12,
      });
      expect((await ctx.read((r) => r.stores.get({ slug: moved })))?.id).toBe(b.id);
      expect(await ctx.read((r) => r.stores.get({ slug: mine }))).toBeNull();
    });

    it('hasCatalogOrOrders: false for an empty store, true once a product exists in either mode or an order exists', async () => {
      const a = newScope('test');
      expect(await ctx.read((r) => r.stores.hasCatalogOrOrders(a.store_id))).toBe(false);
      await ctx.tx((tx) => tx.products.insert(makeProduct(otherMode(a))));
      expect(await ctx.read((r) => r.stores.hasCatalogOrOrders(a.store_id))).toBe(true);
      const b = newScope('live');
      await ctx.tx((tx) => tx.orders.insert(makeOrder(b, 1001)));
      expect(await ctx.read((r) => r.stores.hasCatalogOrOrders(b.store_id))).toBe(true);
      const c = newScope();
      const product = makeProduct(c);
      await ctx.tx((tx) => tx.products.insert(product));
      await ctx.tx((tx) => tx.products.delete(c, product.id, 5));
      expect(await ctx.read((r) => r.stores.hasCatalogOrOrders(c.store_id))).toBe(false);
    });
  });

  describe('api keys', () => {
    it('finds a key globally by hash (revoked included), reads it only in its scope, lists, revokes once, touches', async () => {
      const scope = newScope();
      const key = makeApiKey(scope, { name: 'Server', expires_at: 99 });
      await ctx.tx((tx) => tx.apiKeys.insert(key));
      expect(await ctx.read((r) => r.apiKeys.findByHash(key.key_hash))).toEqual(key);
      expect(await ctx.read((r) => r.apiKeys.findByHash('0'.repeat(64)))).toBeNull();
      expect(await ctx.read((r) => r.apiKeys.get(scope, key.id))).toEqual(key);
      expect(await ctx.read((r) => r.apiKeys.get(otherMode(scope), key.id))).toBeNull();
      const page = await ctx.read((r) =>
        r.apiKeys.list(scope, { limit: 10, sort: 'created_at', order: 'desc' }),
      );
      expect(page).toEqual({ data: [key], total_count: 1, has_more: false, next_cursor: null });
      expect(await ctx.tx((tx) => tx.apiKeys.revoke(otherMode(scope), key.id, 50))).toBe(false);
      expect(await ctx.tx((tx) => tx.apiKeys.revoke(scope, key.id, 50))).toBe(true);
      expect(await ctx.tx((tx) => tx.apiKeys.revoke(scope, key.id, 51))).toBe(false);
      await ctx.tx((tx) => tx.apiKeys.touch(key.id, 77));
      expect(await ctx.read((r) => r.apiKeys.findByHash(key.key_hash))).toMatchObject({
        revoked_at: 50,
        last_used_at: 77,
      });
    });

    it('apiKeys.list leaves revoked keys out (total_count too, every page); get still answers a revoked key', async () => {
      const scope = newScope();
      const keys = [1, 2, 3, 4].map((n) =>
        makeApiKey(scope, { name: `k${n}`, created_at: 1_700_000_000_000 + n }),
      );
      await ctx.tx(async (tx) => {
        for (const key of keys) await tx.apiKeys.insert(key);
      });
      const [k1, k2, k3, k4] = keys as [ApiKeyRecord, ApiKeyRecord, ApiKeyRecord, ApiKeyRecord];
      await ctx.tx(async (tx) => {
        expect(await tx.apiKeys.revoke(scope, k2.id, 60)).toBe(true);
        expect(await tx.apiKeys.revoke(scope, k4.id, 61)).toBe(true);
      });
      const first = await ctx.read((r) =>
        r.apiKeys.list(scope, { limit: 1, sort: 'created_at', order: 'asc' }),
      );
      expect(first.data).toEqual([k1]);
      expect([first.total_count, first.has_more]).toEqual([2, true]);
      const second = await ctx.read((r) =>
        r.apiKeys.list(scope, {
          limit: 1,
          sort: 'created_at',
          order: 'asc',
          starting_after: first.next_cursor ?? undefined,
        }),
      );
      expect(second).toEqual({ data: [k3], total_count: 2, has_more: false, next_cursor: null });
      expect(await ctx.read((r) => r.apiKeys.get(scope, k2.id))).toEqual({ ...k2, revoked_at: 60 });
    });
  });

  describe('customer tokens', () => {
    it('finds tokens by hash within their scope only, returns expired ones, deletes all of a customer', async () => {
      const scope = newScope();
      const customer = makeCustomer(scope);
      await ctx.tx((tx) => tx.customers.insert(customer));
      const token = {
        id: newId('ctok'),
        store_id: scope.store_id,
        mode: scope.mode,
        customer_id: customer.id,
        token_hash: newId('hash'),
        expires_at: 1,
        created_at: 0,
      };
      const second = { ...token, id: newId('ctok'), token_hash: newId('hash'), expires_at: 2 };
      await ctx.tx(async (tx) => {
        await tx.customerTokens.insert(token);
        await tx.customerTokens.insert(second);
      });
      expect(await ctx.read((r) => r.customerTokens.findByHash(scope, token.token_hash))).toEqual(token);
      expect(
        await ctx.read((r) => r.customerTokens.findByHash(otherMode(scope), token.token_hash)),
      ).toBeNull();
      await ctx.tx((tx) => tx.customerTokens.delete(scope, { customer_id: customer.id }));
      expect(await ctx.read((r) => r.customerTokens.findByHash(scope, token.token_hash))).toBeNull();
      expect(await ctx.read((r) => r.customerTokens.findByHash(scope, second.token_hash))).toBeNull();
    });
  });
}
