import { fileURLToPath } from 'node:url';
import {
  createTestDatabase,
  dropTestDatabase,
  nodeWorkerProcesses,
  runStorageConformance,
} from '@cartwright/storage-conformance';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
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

describe('the PostgreSQL storage and its pool', () => {
  it('survives the server ending its idle pooled connections: no crash, the next statement gets a new one', async () => {
    const url = await newDatabase();
    const storage = postgresStorage({ connectionString: url, max: 3 });
    const backend = async () =>
      (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(storage.db)).rows[0]!.pid;
    try {
      const before = await backend();
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      try {
        const ended = await admin.query('select pg_terminate_backend($1) as ended', [before]);
        expect(ended.rows[0].ended).toBe(true);
      } finally {
        await admin.end();
      }
      // The pool hears of it as an 'error' of an idle client (unhandled, it would end the process).
      await new Promise((resolve) => setTimeout(resolve, 200));
      const after = await backend();
      expect(after).not.toBe(before);
    } finally {
      await storage.close();
    }
  });
});
