import { describe } from 'vitest';
import type { StorageConformanceOptions } from './options';
import { createSuiteContext } from './suite-context';
import { accountsSuite } from './suites/accounts';
import { cartLocksSuite } from './suites/cart-locks';
import { cartsSuite } from './suites/carts';
import { catalogSuite } from './suites/catalog';
import { catalogDocumentsSuite } from './suites/catalog-documents';
import { categoriesSuite } from './suites/categories';
import { collectionsSuite } from './suites/collections';
import { concurrencySuite } from './suites/concurrency';
import { customerAccountsSuite } from './suites/customer-accounts';
import { customersSuite } from './suites/customers';
import { dashboardSuite } from './suites/dashboard';
import { discountsSuite } from './suites/discounts';
import { eventsWebhooksSuite } from './suites/events-webhooks';
import { idempotencySuite } from './suites/idempotency';
import { inventorySuite } from './suites/inventory';
import { localesSuite } from './suites/locales';
import { ordersSuite } from './suites/orders';
import { paginationSuite } from './suites/pagination';
import { productCountsSuite } from './suites/product-counts';
import { rateLimitsSuite } from './suites/rate-limits';
import { regionsSuite } from './suites/regions';
import { returnsSuite } from './suites/returns';
import { storefrontTextSuite } from './suites/storefront-text';
import { transactionsSuite } from './suites/transactions';

/**
 * Defines the whole conformance suite (vitest describe/it blocks) for one storage target.
 * Call it at the top level of a vitest test file: `runStorageConformance({ name, createStorage })`.
 * Every test works in its own fresh scope (store id), so the tests share one database — and may
 * share it with other data: the suite never truncates or drops anything.
 */
export function runStorageConformance(options: StorageConformanceOptions): void {
  describe(`storage conformance: ${options.name}`, { timeout: options.timeoutMs ?? 30_000 }, () => {
    const ctx = createSuiteContext(options);
    transactionsSuite(ctx);
    accountsSuite(ctx);
    catalogSuite(ctx);
    categoriesSuite(ctx);
    collectionsSuite(ctx);
    productCountsSuite(ctx);
    catalogDocumentsSuite(ctx);
    storefrontTextSuite(ctx);
    inventorySuite(ctx);
    discountsSuite(ctx);
    customersSuite(ctx);
    customerAccountsSuite(ctx);
    cartsSuite(ctx);
    cartLocksSuite(ctx);
    ordersSuite(ctx);
    returnsSuite(ctx);
    regionsSuite(ctx);
    localesSuite(ctx);
    dashboardSuite(ctx);
    idempotencySuite(ctx);
    eventsWebhooksSuite(ctx);
    paginationSuite(ctx);
    concurrencySuite(ctx);
    rateLimitsSuite(ctx);
  });
}
