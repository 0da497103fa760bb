import { describe, expect, test } from 'vitest';
import { requiredRoleOf } from '../members/roles';
import { regionsOperations } from '../operations/regions';

/** The region operations as the table declares them (decisions §19, §23). */
describe('region operations', () => {
  test('every admin operation (regions, regionPrices, currencyRates) is for a staff admin only', () => {
    const admin = regionsOperations.filter((operation) => operation.auth === 'secret');
    expect(admin.map((operation) => operation.name).sort()).toEqual([
      'currencyRates.delete',
      'currencyRates.list',
      'currencyRates.upsert',
      'regionPrices.delete',
      'regionPrices.list',
      'regionPrices.upsert',
      'regions.create',
      'regions.delete',
      'regions.get',
      'regions.list',
      'regions.update',
    ]);
    for (const operation of admin) expect(requiredRoleOf(operation), operation.name).toBe('admin');
  });

  test('paths and methods of decisions §19; the storefront list takes a publishable key', () => {
    expect(regionsOperations.map((o) => `${o.name} ${o.http.method} ${o.http.path}`)).toEqual([
      'regions.list GET /v1/admin/regions',
      'regions.create POST /v1/admin/regions',
      'regions.get GET /v1/admin/regions/:id',
      'regions.update PATCH /v1/admin/regions/:id',
      'regions.delete DELETE /v1/admin/regions/:id',
      'regions.listStorefront GET /v1/storefront/regions',
      'regionPrices.list GET /v1/admin/regions/:id/prices',
      'regionPrices.upsert PUT /v1/admin/regions/:id/prices',
      'regionPrices.delete DELETE /v1/admin/regions/:id/prices/:variant_id',
      'currencyRates.list GET /v1/admin/currency-rates',
      'currencyRates.upsert PUT /v1/admin/currency-rates',
      'currencyRates.delete DELETE /v1/admin/currency-rates/:id',
    ]);
    const storefront = regionsOperations.find((o) => o.name === 'regions.listStorefront');
    expect(storefront?.auth).toBe('any');
  });
});
