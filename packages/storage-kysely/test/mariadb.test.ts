import {
  nodeWorkerProcesses,
  runStorageConformance,
  type StorageConformanceOptions,
} from '@cartwright/storage-conformance';
import { afterAll, beforeAll } from 'vitest';
// The MariaDB helper is not part of the published package (yet): imported from its source.
import {
  createMariadbTestDatabase,
  dropMariadbTestDatabase,
  type MariadbServer,
  startMariadb,
} from '../../storage-conformance/src/mariadb-server';
import { mysqlStorage } from '../src/mysql';

// One throwaway MariaDB for this file (started here, not by the global setup, so that the other
// files of the project never wait for it); the suite works in its own database. A server that
// cannot start fails every test here with the reason (never skipped). The whole conformance
// suite runs, as on SQLite and PostgreSQL (README "MariaDB (MySQL): state").
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
  // Worker processes import mariadb-worker.ts and open the suite's (or a fresh) database.
  supportsMultiProcess: nodeWorkerProcesses({
    module: new URL('./mariadb-worker.ts', import.meta.url),
    target: async (freshDatabase) => ({ url: freshDatabase ? await newDatabase() : databaseUrl }),
  }),
};

runStorageConformance(options);
