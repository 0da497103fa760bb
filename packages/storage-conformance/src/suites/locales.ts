import type { Scope } from '@cartwright/core';
import type { StoreLocaleRecord } from '@cartwright/core/storage';
import { describe, expect, it } from 'vitest';
import { newId, newScope, otherMode } from '../fixtures';
import type { SuiteContext } from '../suite-context';

function makeLocale(scope: Scope, overrides: Partial<StoreLocaleRecord> = {}): StoreLocaleRecord {
  return {
    store_id: scope.store_id,
    mode: scope.mode,
    id: newId('lcl'),
    locale: 'en',
    name: 'English',
    is_default: false,
    is_active: true,
    created_at: 1_700_000_000_000,
    ...overrides,
  };
}

/** Store locales (decisions §21): the `LocaleRepository` port's writes of a locale in place. */
export function localesSuite(ctx: SuiteContext): void {
  const insertLocales = (...locales: StoreLocaleRecord[]) =>
    ctx.tx(async (tx) => {
      for (const locale of locales) await tx.locales.insert(locale);
    });

  describe('locales', () => {
    it('locales.update writes the given fields only and answers the record; an empty patch writes nothing; another scope or an unknown id → null', async () => {
      const scope = newScope();
      const en = makeLocale(scope, { locale: 'en', name: 'English', is_default: true });
      const fr = makeLocale(scope, { locale: 'fr', name: 'French', created_at: 1_700_000_000_001 });
      const elsewhere = makeLocale(otherMode(scope), { id: fr.id, locale: 'fr', name: 'Other mode' });
      await insertLocales(en, fr, elsewhere);

      const renamed = await ctx.tx((tx) => tx.locales.update(scope, fr.id, { name: 'Français' }));
      expect(renamed).toEqual({ ...fr, name: 'Français' });
      const flags = await ctx.tx(async (tx) => {
        await tx.locales.lock(scope);
        const row = await tx.locales.update(scope, fr.id, { is_default: true, is_active: false });
        await tx.locales.clearDefault(scope, fr.id);
        return row;
      });
      expect(flags).toEqual({ ...fr, name: 'Français', is_default: true, is_active: false });
      expect(await ctx.read((r) => r.locales.list(scope))).toEqual([
        { ...en, is_default: false },
        { ...fr, name: 'Français', is_default: true, is_active: false },
      ]);
      // Back again: false is written as false (not skipped).
      expect(
        await ctx.tx((tx) => tx.locales.update(scope, fr.id, { is_default: false, is_active: true })),
      ).toEqual({ ...fr, name: 'Français' });
      expect(await ctx.tx((tx) => tx.locales.update(scope, en.id, {}))).toEqual({ ...en, is_default: false });

      expect(await ctx.tx((tx) => tx.locales.update(scope, newId('lcl'), { name: 'x' }))).toBeNull();
      expect(await ctx.tx((tx) => tx.locales.update(scope, newId('lcl'), {}))).toBeNull();
      // The other mode's row of the same id is its own.
      expect(await ctx.read((r) => r.locales.list(otherMode(scope)))).toEqual([elsewhere]);
    });

    it('locales.update is seen by the storefront read model at once: the default it keeps moves', async () => {
      const scope = newScope();
      const en = makeLocale(scope, { locale: 'en', is_default: true });
      const de = makeLocale(scope, { locale: 'de', name: 'Deutsch', created_at: 1_700_000_000_001 });
      await insertLocales(en, de);
      const storage = ctx.storage();
      const kept = async () => {
        const read = storage.storefront?.locales
          ? (await storage.storefront.locales(scope)).locales
          : await storage.read((r) => r.locales.list(scope));
        return read.map((l) => [l.locale, l.is_default, l.is_active]);
      };
      expect(await kept()).toEqual([
        ['en', true, true],
        ['de', false, true],
      ]);
      await ctx.tx(async (tx) => {
        await tx.locales.lock(scope);
        await tx.locales.update(scope, de.id, { is_default: true });
        await tx.locales.clearDefault(scope, de.id);
      });
      expect(await kept()).toEqual([
        ['en', false, true],
        ['de', true, true],
      ]);
      await ctx.tx((tx) => tx.locales.update(scope, en.id, { is_active: false }));
      expect(await kept()).toEqual([
        ['en', false, false],
        ['de', true, true],
      ]);
    });
  });
}
