import { nodeWorkerProcesses, type StorageConformanceOptions } from '@cartwright/storage-conformance';
import { afterAll, beforeAll, describe } from 'vitest';
// The MariaDB helper and the suites one by one: this run includes only the suites that pass on
// MariaDB today (README "MariaDB: state" lists the others and why).
import {
  createMariadbTestDatabase,
  dropMariadbTestDatabase,
  type MariadbServer,
  startMariadb,
} from '../../storage-conformance/src/mariadb-server';
import { createSuiteContext } from '../../storage-conformance/src/suite-context';
import { accountsSuite } from '../../storage-conformance/src/suites/accounts';
import { cartLocksSuite } from '../../storage-conformance/src/suites/cart-locks';
import { cartsSuite } from '../../storage-conformance/src/suites/carts';
import { catalogSuite } from '../../storage-conformance/src/suites/catalog';
import { catalogDocumentsSuite } from '../../storage-conformance/src/suites/catalog-documents';
import { concurrencySuite } from '../../storage-conformance/src/suites/concurrency';
import { customerAccountsSuite } from '../../storage-conformance/src/suites/customer-accounts';
import { customersSuite } from '../../storage-conformance/src/suites/customers';
import { discountsSuite } from '../../storage-conformance/src/suites/discounts';
import { eventsWebhooksSuite } from '../../storage-conformance/src/suites/events-webhooks';
import { idempotencySuite } from '../../storage-conformance/src/suites/idempotency';
import { inventorySuite } from '../../storage-conformance/src/suites/inventory';
import { ordersSuite } from '../../storage-conformance/src/suites/orders';
import { paginationSuite } from '../../storage-conformance/src/suites/pagination';
import { productCountsSuite } from '../../storage-conformance/src/suites/product-counts';
import { rateLimitsSuite } from '../../storage-conformance/src/suites/rate-limits';
import { storefrontTextSuite } from '../../storage-conformance/src/suites/storefront-text';
import { transactionsSuite } from '../../storage-conformance/src/suites/transactions';
import { mysqlStorage } from '../src/mysql';

// One throwaway MariaDB for this file (started here, not by the global setup, so that the other
// files of the project never wait for it); the suite works in its own database. A server that
// cannot start fails every test here with the reason (never skipped).
let server: MariadbServer | undefined;
let databaseUrl = '';
const databases: string[] = [];

async function newDatabase(): Promise<string> {
  if (!server) throw new Error('MariaDB did not start');
  const url = await createMariadbTestDatabase(server.url);
  databases.push(url);
  return url;
}

beforeAll(async () => {
  server = await startMariadb();
  databaseUrl = await newDatabase();
}, 120_000);

afterAll(async () => {
  for (const url of databases) await dropMariadbTestDatabase(url).catch(() => {});
  await server?.stop();
});

const options: StorageConformanceOptions = {
  name: 'mariadb',
  createStorage: async () => mysqlStorage({ connectionString: databaseUrl, max: 20 }),
  createEmptyStorage: async () => mysqlStorage({ connectionString: await newDatabase() }),
  sharedDatabase: true,
  concurrentStorages: 4,
  supportsMultiProcess: nodeWorkerProcesses({
    module: new URL('./mariadb-worker.ts', import.meta.url),
    target: async (freshDatabase) => ({ url: freshDatabase ? await newDatabase() : databaseUrl }),
  }),
};

describe('storage conformance: mariadb', { timeout: 30_000 }, () => {
  const ctx = createSuiteContext(options);
  transactionsSuite(ctx);
  accountsSuite(ctx);
  catalogSuite(ctx);
  productCountsSuite(ctx);
  catalogDocumentsSuite(ctx);
  storefrontTextSuite(ctx);
  inventorySuite(ctx);
  discountsSuite(ctx);
  customersSuite(ctx);
  customerAccountsSuite(ctx);
  cartsSuite(ctx);
  ordersSuite(ctx);
  idempotencySuite(ctx);
  cartLocksSuite(ctx);
  eventsWebhooksSuite(ctx);
  paginationSuite(ctx);
  concurrencySuite(ctx);
  rateLimitsSuite(ctx);
});
