import { fileURLToPath } from 'node:url';
import {
  createTestDatabase,
  dropTestDatabase,
  nodeWorkerProcesses,
  runStorageConformance,
} from '@cartwright/storage-conformance';
import { afterAll, beforeAll, inject } from 'vitest';
import { postgresStorage } from '../src/postgres';
import { describeSchemaContract } from './schema-contract';

// The server is started once per run by global-setup.ts; this file works in its own database.
// When no server could start, every test here fails with the reason (never skipped).
const serverUrl = inject('cartwrightPgUrl');
const databases: string[] = [];
let databaseUrl = '';

async function newDatabase(): Promise<string> {
  const error = inject('cartwrightPgError');
  if (error) throw new Error(error);
  const url = await createTestDatabase(serverUrl);
  databases.push(url);
  return url;
}

beforeAll(async () => {
  databaseUrl = await newDatabase();
});

afterAll(async () => {
  for (const url of databases) await dropTestDatabase(url);
});

runStorageConformance({
  name: 'postgres',
  createStorage: async () => postgresStorage({ connectionString: databaseUrl, max: 20 }),
  createEmptyStorage: async () => postgresStorage({ connectionString: await newDatabase() }),
  sharedDatabase: true,
  concurrentStorages: 4,
  supportsMultiProcess: nodeWorkerProcesses({
    script: fileURLToPath(new URL('./storage-worker.ts', import.meta.url)),
    env: async (freshDatabase) => ({
      CARTWRIGHT_WORKER_TARGET: JSON.stringify({
        kind: 'postgres',
        url: freshDatabase ? await newDatabase() : databaseUrl,
      }),
    }),
  }),
});

describeSchemaContract('postgres', async () => postgresStorage({ connectionString: await newDatabase() }));
