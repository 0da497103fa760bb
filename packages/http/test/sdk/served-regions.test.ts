import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase } from '@cartwright/storage-conformance/postgres-server';
import { type CurrencyRate, HeadlessCommerce, type Region, type RegionPrice } from '@headless-commerce/sdk';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import {
  pnpmStart,
  type StartedServer as Started,
  stopServer as stop,
} from '../../../cli/test/support/pnpm-start';
import { describeApi } from '../api/support/harness';
import { API_TARGETS } from '../api/support/targets';
import { createSellable, expectSdkError, isoDate, sdkClients, tickingClock } from './support';

/**
 * decisions §19 as `@headless-commerce/sdk` 0.2.0 sends and reads it: the nine region, region
 * price and currency rate methods of `regions` (`adminList`, `adminGet`, `adminCreate`,
 * `adminUpdate`, `adminDelete`, `adminListPrices`, `adminUpsertPrice` — a `PUT` —,
 * `adminListCurrencyRates`, `adminUpsertCurrencyRate` — a `PUT`), unmodified, typed with the
 * SDK's own `Region`, `RegionPrice` and `CurrencyRate`. The SDK's doc examples name fields that
 * are not in its types (`currency_code`, `countries`, `amount`, `from`/`to`): those are refused
 * with 400 `parameter_unknown`, as every unknown body field.
 *
 * First through the `describeApi` harness (every engine of the run), then against the root
 * `pnpm start` command — the built JavaScript (`node … packages/cli/dist/bin.js serve`) as a child
 * process with nothing but environment configuration, on SQLite and PostgreSQL — as
 * `pnpm-start-catalog-returns.test.ts` does. After changing the sources, `pnpm build:js` refreshes
 * the built JavaScript.
 */

describeApi(
  'sdk: regions, region prices and currency rates served as the client sends them (decisions §19)',
  (api) => {
    test('adminCreate / adminGet / adminList / adminUpdate / adminDelete', async () => {
      const { admin } = sdkClients(api());
      expect(await admin.regions.adminList()).toMatchObject({ data: [] });
      const eu: Region = await admin.regions.adminCreate({
        name: 'Europe',
        code: 'eu',
        currency: 'eur',
        tax_rate: 20,
        prices_include_tax: true,
        is_default: true,
        metadata: { vat: true },
      });
      expect(eu).toEqual({
        id: expect.stringMatching(/^reg_/),
        name: 'Europe',
        code: 'eu',
        currency: 'EUR',
        tax_rate: 20,
        prices_include_tax: true,
        is_default: true,
        is_active: true,
        metadata: { vat: true },
        created_at: isoDate,
        updated_at: isoDate,
      });
      const jp = await admin.regions.adminCreate({ name: 'Japan', code: 'jp', currency: 'JPY' });
      expect(jp).toMatchObject({ currency: 'JPY', is_default: false, is_active: true });
      expect(await admin.regions.adminGet(eu.id)).toEqual(eu);
      const { data } = await admin.regions.adminList();
      expect(data.map((r) => r.code)).toEqual(['eu', 'jp']);
      await expectSdkError(
        admin.regions.adminCreate({ name: 'Again', code: 'eu', currency: 'GBP' }),
        409,
        'duplicate_code',
      );
      await expectSdkError(
        admin.regions.adminCreate({ name: 'Gold', code: 'au', currency: 'XAU' }),
        400,
        'parameter_invalid',
      );
      // The SDK's doc example: `currency_code` and `countries` are not fields.
      await expectSdkError(
        admin.regions.adminCreate({ name: 'Europe', currency_code: 'EUR', countries: ['DE'] } as never),
        400,
        'parameter_unknown',
      );
      await expectSdkError(
        sdkClients(api()).withKey(api().keys.publishable).regions.adminList(),
        403,
        'forbidden',
      );

      const updated: Region = await admin.regions.adminUpdate(jp.id, {
        name: 'Nippon',
        is_default: true,
        tax_rate: 10,
        is_active: false,
      });
      expect(updated).toMatchObject({
        id: jp.id,
        name: 'Nippon',
        is_default: true,
        tax_rate: 10,
        is_active: false,
      });
      expect((await admin.regions.adminGet(eu.id)).is_default).toBe(false);
      await expectSdkError(
        admin.regions.adminUpdate(jp.id, { code: 'nippon' } as never),
        400,
        'parameter_unknown',
      );
      expect(await admin.regions.adminDelete(jp.id)).toEqual({ id: jp.id, deleted: true });
      await expectSdkError(admin.regions.adminGet(jp.id), 404, 'not_found');
      await expectSdkError(admin.regions.adminDelete(jp.id), 404, 'not_found');
    });

    test('adminUpsertPrice (PUT) / adminListPrices; currency_locked once priced', async () => {
      const { admin } = sdkClients(api());
      const eu = (await admin.regions.adminList()).data.find((r) => r.code === 'eu') as Region;
      const { variant } = await createSellable(admin, { price: 1999 });
      const first: RegionPrice = await admin.regions.adminUpsertPrice(eu.id, {
        variant_id: variant.id,
        price: 1899,
        compare_at_price: 2199,
      });
      expect(first).toEqual({
        id: expect.stringMatching(/^rprice_/),
        region_id: eu.id,
        variant_id: variant.id,
        price: 1899,
        compare_at_price: 2199,
        created_at: isoDate,
        updated_at: isoDate,
      });
      const replaced = await admin.regions.adminUpsertPrice(eu.id, {
        variant_id: variant.id,
        price: 1799,
        compare_at_price: null,
      });
      expect(replaced).toMatchObject({ id: first.id, price: 1799, compare_at_price: null });
      const listed = await admin.regions.adminListPrices(eu.id);
      expect(listed.data).toEqual([replaced]);
      // The SDK's doc example (`amount`, `currency_code`) is not its type: refused.
      await expectSdkError(
        admin.regions.adminUpsertPrice(eu.id, {
          variant_id: variant.id,
          amount: 2499,
          currency_code: 'EUR',
        } as never),
        400,
        'parameter_unknown',
      );
      await expectSdkError(
        admin.regions.adminUpsertPrice(eu.id, { variant_id: 'var_nope', price: 1 }),
        404,
        'not_found',
      );
      await expectSdkError(
        admin.regions.adminUpsertPrice(eu.id, {
          variant_id: variant.id,
          price: { amount: 1, currency: 'USD' } as never,
        }),
        422,
        'currency_mismatch',
      );
      await expectSdkError(admin.regions.adminUpdate(eu.id, { currency: 'GBP' }), 409, 'currency_locked');
      await expectSdkError(admin.regions.adminListPrices('reg_nope'), 404, 'not_found');
    });

    test('adminUpsertCurrencyRate (PUT) / adminListCurrencyRates', async () => {
      const { admin } = sdkClients(api());
      const rate: CurrencyRate = await admin.regions.adminUpsertCurrencyRate({
        from_currency: 'USD',
        to_currency: 'EUR',
        rate: 0.92,
      });
      expect(rate).toEqual({
        id: expect.stringMatching(/^rate_/),
        from_currency: 'USD',
        to_currency: 'EUR',
        rate: 0.92,
        updated_at: isoDate,
      });
      const again = await admin.regions.adminUpsertCurrencyRate({
        from_currency: 'usd',
        to_currency: 'eur',
        rate: 0.9234,
      });
      expect(again).toMatchObject({ id: rate.id, rate: 0.9234 });
      const jpy = await admin.regions.adminUpsertCurrencyRate({
        from_currency: 'USD',
        to_currency: 'JPY',
        rate: 151.37,
      });
      const { data } = await admin.regions.adminListCurrencyRates();
      expect(data).toEqual([again, jpy]);
      await expectSdkError(
        admin.regions.adminUpsertCurrencyRate({ from_currency: 'USD', to_currency: 'USD', rate: 1 }),
        400,
        'parameter_invalid',
      );
      await expectSdkError(
        admin.regions.adminUpsertCurrencyRate({ from_currency: 'USD', to_currency: 'EUR', rate: 0 }),
        400,
        'parameter_invalid',
      );
      // The SDK's doc example (`from`, `to`) is not its type: refused.
      await expectSdkError(
        admin.regions.adminUpsertCurrencyRate({ from: 'USD', to: 'EUR', rate: 0.92 } as never),
        400,
        'parameter_unknown',
      );
      expect((await admin.regions.adminListCurrencyRates()).data).toEqual([again, jpy]);
    });
  },
  { clock: tickingClock() },
);

const SECRET = 'sk_test_regionsServeSecret0000000000001';
const PUBLISHABLE = 'pk_test_regionsServePublishable00000001';

// pnpm start serves SQLite and PostgreSQL (the HTTP targets of the run among them).
for (const target of (['sqlite', 'postgres'] as const).filter((t) => API_TARGETS.includes(t))) {
  describe(`the SDK's nine region methods against pnpm start [${target}]`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'cartwright-regions-serve-'));
    let server: Started;
    let baseUrl: string;
    let admin: HeadlessCommerce;

    beforeAll(async () => {
      let databaseUrl = join(dir, 'shop.db');
      if (target === 'postgres') {
        const serverUrl = inject('cartwrightPgUrl');
        if (!serverUrl) throw new Error(`PostgreSQL is not available: ${inject('cartwrightPgError')}`);
        databaseUrl = await createTestDatabase(serverUrl);
      }
      server = await pnpmStart({ DATABASE_URL: databaseUrl, COMMERCE_API_KEYS: `${SECRET},${PUBLISHABLE}` });
      baseUrl = `${server.url}/v1`;
      admin = new HeadlessCommerce({ apiKey: SECRET, baseUrl, maxRetries: 0 });
    }, 90_000);

    afterAll(async () => {
      if (server) await stop(server.child);
      rmSync(dir, { recursive: true, force: true });
    });

    test('regions, region prices and currency rates, unmodified; the storefront lists the active regions', async () => {
      const eu: Region = await admin.regions.adminCreate({
        name: 'Europe',
        code: 'eu',
        currency: 'eur',
        tax_rate: 20,
        prices_include_tax: true,
        is_default: true,
      });
      expect(eu).toMatchObject({
        id: expect.stringMatching(/^reg_/),
        currency: 'EUR',
        is_default: true,
        is_active: true,
      });
      const kw = await admin.regions.adminCreate({ name: 'Kuwait', code: 'kw', currency: 'KWD' });
      expect(await admin.regions.adminGet(kw.id)).toEqual(kw);
      expect((await admin.regions.adminList()).data.map((r) => r.id)).toEqual([eu.id, kw.id]);
      const renamed = await admin.regions.adminUpdate(kw.id, { name: 'Gulf', is_active: false });
      expect(renamed).toMatchObject({ id: kw.id, name: 'Gulf', is_active: false });

      const { variant } = await createSellable(admin, { price: 1999 });
      const price: RegionPrice = await admin.regions.adminUpsertPrice(eu.id, {
        variant_id: variant.id,
        price: 1799,
      });
      expect(price).toMatchObject({ id: expect.stringMatching(/^rprice_/), region_id: eu.id, price: 1799 });
      expect((await admin.regions.adminListPrices(eu.id)).data).toEqual([price]);
      await expectSdkError(admin.regions.adminUpdate(eu.id, { currency: 'GBP' }), 409, 'currency_locked');

      const rate: CurrencyRate = await admin.regions.adminUpsertCurrencyRate({
        from_currency: 'USD',
        to_currency: 'KWD',
        rate: 0.3075,
      });
      expect(rate).toMatchObject({ id: expect.stringMatching(/^rate_/), rate: 0.3075 });
      expect((await admin.regions.adminListCurrencyRates()).data).toEqual([rate]);

      const listed = await fetch(`${baseUrl}/storefront/regions`, {
        headers: { authorization: `Bearer ${PUBLISHABLE}` },
      });
      expect(listed.status).toBe(200);
      expect(((await listed.json()) as { data: Region[] }).data.map((r) => r.id)).toEqual([eu.id]);

      expect(await admin.regions.adminDelete(kw.id)).toEqual({ id: kw.id, deleted: true });
      await expectSdkError(admin.regions.adminGet(kw.id), 404, 'not_found');
    });
  });
}
