import { CommerceError } from '@cartwright/core';
import type { Storage } from '@cartwright/core/storage';
import { describe, expect, it } from 'vitest';
import { makeCustomer, makeCustomerToken, makePasswordReset, newId, newScope, otherMode } from '../fixtures';
import type { SuiteContext } from '../suite-context';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `count` tasks at once, task i on storage i mod n; returns what each resolved to (errors as values). */
async function inParallel<T>(
  storages: Storage[],
  count: number,
  task: (storage: Storage, i: number) => Promise<T>,
): Promise<Array<T | unknown>> {
  return Promise.all(
    Array.from({ length: count }, (_, i) => task(storages[i % storages.length]!, i).catch((error) => error)),
  );
}

/**
 * Customer accounts (docs/contract.md#passwords): the password hash on the customer, token revocation
 * (sign-out; a password change or reset revokes the others) and single-use password reset
 * tokens, with their concurrency promises — one claim of a reset token wins, one of several
 * concurrent sign-ups of one e-mail wins. Concurrency runs on several storages (connections) of
 * one database when the target shares one, else as parallel transactions on one storage.
 */
export function customerAccountsSuite(ctx: SuiteContext): void {
  const storages = () =>
    ctx.openStorages(ctx.options.sharedDatabase ? (ctx.options.concurrentStorages ?? 4) : 1);

  describe('customer accounts', () => {
    it('password_hash round-trips through insert, get (by id and by e-mail), list and update (back to null too)', async () => {
      const scope = newScope();
      const customer = makeCustomer(scope, { email: 'Pass.Word@Example.com', password_hash: 'scrypt$a$b$c' });
      const without = makeCustomer(scope);
      await ctx.tx(async (tx) => {
        await tx.customers.insert(customer);
        await tx.customers.insert(without);
      });
      expect(await ctx.read((r) => r.customers.get(scope, customer.id))).toEqual(customer);
      expect((await ctx.read((r) => r.customers.get(scope, without.id)))?.password_hash).toBeNull();
      expect(await ctx.read((r) => r.customers.get(scope, { email: 'pass.word@example.com' }))).toEqual(
        customer,
      );
      const listed = await ctx.read((r) =>
        r.customers.list(scope, {}, { limit: 10, sort: 'created_at', order: 'asc' }),
      );
      expect(listed.data.find((c) => c.id === customer.id)?.password_hash).toBe('scrypt$a$b$c');
      expect(listed.data.find((c) => c.id === without.id)?.password_hash).toBeNull();

      const changed = await ctx.tx((tx) =>
        tx.customers.update(scope, customer.id, { password_hash: 'scrypt$new', updated_at: 5 }),
      );
      expect(changed).toEqual({ ...customer, password_hash: 'scrypt$new', updated_at: 5 });
      expect((await ctx.read((r) => r.customers.get(scope, { email: customer.email })))?.password_hash).toBe(
        'scrypt$new',
      );
      // A patch without password_hash leaves it alone.
      await ctx.tx((tx) => tx.customers.update(scope, customer.id, { first_name: 'Ada', updated_at: 6 }));
      expect((await ctx.read((r) => r.customers.get(scope, customer.id)))?.password_hash).toBe('scrypt$new');
      const cleared = await ctx.tx((tx) =>
        tx.customers.update(scope, customer.id, { password_hash: null, updated_at: 7 }),
      );
      expect(cleared?.password_hash).toBeNull();
      expect((await ctx.read((r) => r.customers.get(scope, customer.id)))?.password_hash).toBeNull();
      const set = await ctx.tx((tx) =>
        tx.customers.update(scope, without.id, { password_hash: 'scrypt$first', updated_at: 8 }),
      );
      expect(set).toEqual({ ...without, password_hash: 'scrypt$first', updated_at: 8 });
    });

    it('customer token delete (sign-out) revokes one token in its scope: true, then false', async () => {
      const scope = newScope();
      const customer = makeCustomer(scope);
      await ctx.tx((tx) => tx.customers.insert(customer));
      const token = makeCustomerToken(scope, customer.id);
      const kept = makeCustomerToken(scope, customer.id);
      await ctx.tx(async (tx) => {
        await tx.customerTokens.insert(token);
        await tx.customerTokens.insert(kept);
      });
      expect(await ctx.tx((tx) => tx.customerTokens.delete(otherMode(scope), token.id))).toBe(false);
      expect(await ctx.read((r) => r.customerTokens.findByHash(scope, token.token_hash))).toEqual(token);
      expect(await ctx.tx((tx) => tx.customerTokens.delete(scope, token.id))).toBe(true);
      expect(await ctx.tx((tx) => tx.customerTokens.delete(scope, token.id))).toBe(false);
      expect(await ctx.read((r) => r.customerTokens.findByHash(scope, token.token_hash))).toBeNull();
      expect(await ctx.read((r) => r.customerTokens.findByHash(scope, kept.token_hash))).toEqual(kept);
    });

    it('delete({ customer_id }) revokes every token of the customer, or every one but except_id; others and other scopes untouched', async () => {
      const scope = newScope();
      const customer = makeCustomer(scope);
      const other = makeCustomer(scope);
      // The same customer id in the other mode of the store (ids are unique per scope only).
      const twin = makeCustomer(otherMode(scope), { id: customer.id });
      await ctx.tx(async (tx) => {
        for (const c of [customer, other, twin]) await tx.customers.insert(c);
      });
      const mine = [1, 2, 3].map(() => makeCustomerToken(scope, customer.id));
      const current = mine[1]!;
      const others = makeCustomerToken(scope, other.id);
      const twins = makeCustomerToken(otherMode(scope), customer.id);
      await ctx.tx(async (tx) => {
        for (const token of [...mine, others, twins]) await tx.customerTokens.insert(token);
      });
      const alive = async (tokens: ReturnType<typeof makeCustomerToken>[]) =>
        Promise.all(
          tokens.map(
            async (t) => (await ctx.read((r) => r.customerTokens.findByHash(t, t.token_hash))) !== null,
          ),
        );

      await ctx.tx((tx) =>
        tx.customerTokens.delete(scope, { customer_id: customer.id, except_id: current.id }),
      );
      expect(await alive(mine)).toEqual([false, true, false]);
      expect(await alive([others, twins])).toEqual([true, true]);

      // An except_id that is another customer's token protects nothing of this customer.
      const again = makeCustomerToken(scope, customer.id);
      await ctx.tx((tx) => tx.customerTokens.insert(again));
      await ctx.tx((tx) =>
        tx.customerTokens.delete(scope, { customer_id: customer.id, except_id: others.id }),
      );
      expect(await alive([current, again])).toEqual([false, false]);
      expect(await alive([others, twins])).toEqual([true, true]);

      const last = makeCustomerToken(scope, customer.id);
      await ctx.tx((tx) => tx.customerTokens.insert(last));
      expect(await ctx.tx((tx) => tx.customerTokens.delete(scope, { customer_id: customer.id }))).toBe(true);
      expect(await alive([last])).toEqual([false]);
      expect(await alive([others, twins])).toEqual([true, true]);
      // Nothing left to revoke: false.
      expect(await ctx.tx((tx) => tx.customerTokens.delete(scope, { customer_id: customer.id }))).toBe(false);
    });

    it('password reset: consume returns the record once (expired too), then null; scoped; deleteForCustomer', async () => {
      const scope = newScope();
      const customer = makeCustomer(scope);
      const other = makeCustomer(scope);
      await ctx.tx(async (tx) => {
        await tx.customers.insert(customer);
        await tx.customers.insert(other);
      });
      const reset = makePasswordReset(scope, customer.id);
      await ctx.tx((tx) => tx.passwordResets.replace(reset));
      expect(await ctx.tx((tx) => tx.passwordResets.consume(otherMode(scope), reset.token_hash))).toBeNull();
      expect(await ctx.tx((tx) => tx.passwordResets.consume(scope, 'hash_unknown'))).toBeNull();
      expect(await ctx.tx((tx) => tx.passwordResets.consume(scope, reset.token_hash))).toEqual(reset);
      expect(await ctx.tx((tx) => tx.passwordResets.consume(scope, reset.token_hash))).toBeNull();

      // The caller checks expiry: an expired token is still claimed (and so used up).
      const expired = makePasswordReset(scope, customer.id, { expires_at: 1, created_at: 0 });
      await ctx.tx((tx) => tx.passwordResets.replace(expired));
      expect(await ctx.tx((tx) => tx.passwordResets.consume(scope, expired.token_hash))).toEqual(expired);

      // A claim rolled back with its transaction leaves the token usable.
      const rolledBack = makePasswordReset(scope, customer.id);
      await ctx.tx((tx) => tx.passwordResets.replace(rolledBack));
      await expect(
        ctx.tx(async (tx) => {
          expect(await tx.passwordResets.consume(scope, rolledBack.token_hash)).toEqual(rolledBack);
          throw new Error('rollback');
        }),
      ).rejects.toThrow('rollback');
      expect(await ctx.tx((tx) => tx.passwordResets.consume(scope, rolledBack.token_hash))).toEqual(
        rolledBack,
      );

      const mine = makePasswordReset(scope, customer.id);
      const theirs = makePasswordReset(scope, other.id);
      await ctx.tx(async (tx) => {
        await tx.passwordResets.replace(mine);
        await tx.passwordResets.replace(theirs);
      });
      await ctx.tx((tx) => tx.passwordResets.deleteForCustomer(otherMode(scope), customer.id));
      await ctx.tx((tx) => tx.passwordResets.deleteForCustomer(scope, customer.id));
      expect(await ctx.tx((tx) => tx.passwordResets.consume(scope, mine.token_hash))).toBeNull();
      expect(await ctx.tx((tx) => tx.passwordResets.consume(scope, theirs.token_hash))).toEqual(theirs);
    });

    it("password reset: replace voids the customer's earlier token, not another customer's; a rolled-back replace voids nothing", async () => {
      const scope = newScope();
      const customer = makeCustomer(scope);
      const other = makeCustomer(scope);
      const twin = makeCustomer(otherMode(scope), { id: customer.id });
      await ctx.tx(async (tx) => {
        for (const c of [customer, other, twin]) await tx.customers.insert(c);
      });
      const older = makePasswordReset(scope, customer.id, { created_at: 1 });
      const theirs = makePasswordReset(scope, other.id);
      const twins = makePasswordReset(otherMode(scope), customer.id);
      await ctx.tx(async (tx) => {
        await tx.passwordResets.replace(older);
        await tx.passwordResets.replace(theirs);
        await tx.passwordResets.replace(twins);
      });

      const discarded = makePasswordReset(scope, customer.id, { created_at: 2 });
      await expect(
        ctx.tx(async (tx) => {
          await tx.passwordResets.replace(discarded);
          throw new Error('rollback');
        }),
      ).rejects.toThrow('rollback');

      const newer = makePasswordReset(scope, customer.id, { created_at: 3 });
      await ctx.tx((tx) => tx.passwordResets.replace(newer));
      expect(await ctx.tx((tx) => tx.passwordResets.consume(scope, older.token_hash))).toBeNull();
      expect(await ctx.tx((tx) => tx.passwordResets.consume(scope, discarded.token_hash))).toBeNull();
      expect(await ctx.tx((tx) => tx.passwordResets.consume(scope, newer.token_hash))).toEqual(newer);
      expect(await ctx.tx((tx) => tx.passwordResets.consume(scope, theirs.token_hash))).toEqual(theirs);
      expect(await ctx.tx((tx) => tx.passwordResets.consume(otherMode(scope), twins.token_hash))).toEqual(
        twins,
      );
    });

    it('10 concurrent claims of one reset token → exactly one gets the record', async () => {
      const scope = newScope();
      const customer = makeCustomer(scope);
      const reset = makePasswordReset(scope, customer.id);
      await ctx.tx(async (tx) => {
        await tx.customers.insert(customer);
        await tx.passwordResets.replace(reset);
      });
      const pool = await storages();
      try {
        const results = await inParallel(pool.storages, 10, (storage) =>
          storage.transaction(async (tx) => {
            const claimed = await tx.passwordResets.consume(scope, reset.token_hash);
            // Hold the claim (and its row lock) open a little, so that the others overlap it.
            await sleep(20);
            return claimed;
          }),
        );
        expect(results.filter((r) => r instanceof Error)).toEqual([]);
        expect(results.filter((r) => r !== null)).toEqual([reset]);
        expect(results.filter((r) => r === null)).toHaveLength(9);
      } finally {
        await pool.close();
      }
    });

    it('8 concurrent replaces for one customer leave exactly one usable reset token', async () => {
      const scope = newScope();
      const customer = makeCustomer(scope);
      await ctx.tx((tx) => tx.customers.insert(customer));
      const resets = Array.from({ length: 8 }, () => makePasswordReset(scope, customer.id));
      const pool = await storages();
      try {
        const results = await inParallel(pool.storages, resets.length, (storage, i) =>
          storage.transaction(async (tx) => {
            await tx.passwordResets.replace(resets[i]!);
            await sleep(10);
            return 'replaced';
          }),
        );
        expect(results).toEqual(resets.map(() => 'replaced'));
      } finally {
        await pool.close();
      }
      const claimed = [];
      for (const reset of resets) {
        const record = await ctx.tx((tx) => tx.passwordResets.consume(scope, reset.token_hash));
        if (record) claimed.push(record);
      }
      expect(claimed).toHaveLength(1);
    });

    it('8 concurrent sign-ups of one e-mail in different cases → exactly one customer, the rest duplicate_email', async () => {
      const scope = newScope();
      const local = newId('signup');
      const emails = Array.from({ length: 8 }, (_, i) =>
        `${local}@example.com`.replace(/./g, (ch, at: number) =>
          (at + i) % 3 === 0 ? ch.toUpperCase() : ch,
        ),
      );
      expect(new Set(emails).size).toBeGreaterThan(1);
      const pool = await storages();
      let results: unknown[];
      try {
        results = await inParallel(pool.storages, emails.length, (storage, i) =>
          storage.transaction(async (tx) => {
            const customer = makeCustomer(scope, { email: emails[i]!, password_hash: `scrypt$${i}` });
            await tx.customers.insert(customer);
            await sleep(10);
            return customer.id;
          }),
        );
      } finally {
        await pool.close();
      }
      const winners = results.filter((r): r is string => typeof r === 'string');
      const losers = results.filter((r) => typeof r !== 'string');
      expect(winners).toHaveLength(1);
      expect(losers).toHaveLength(emails.length - 1);
      for (const error of losers) {
        expect(CommerceError.is(error), String(error)).toBe(true);
        expect((error as CommerceError).code).toBe('duplicate_email');
        expect((error as CommerceError).param).toBe('email');
      }
      const stored = await ctx.read((r) => r.customers.get(scope, { email: `${local}@EXAMPLE.com` }));
      expect(stored?.id).toBe(winners[0]);
      const all = await ctx.read((r) =>
        r.customers.list(scope, {}, { limit: 20, sort: 'created_at', order: 'asc' }),
      );
      expect(all.data).toHaveLength(1);
    });
  });
}
