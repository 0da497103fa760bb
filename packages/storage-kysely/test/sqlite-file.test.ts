import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeWorkerProcesses, runStorageConformance } from '@cartwright/storage-conformance';
import { afterAll } from 'vitest';
import { sqliteStorage } from '../src/sqlite';

// One database file shared by several storages (connections) and, in one test, several OS
// processes; WAL, busy_timeout and BEGIN IMMEDIATE make them take turns as writers.
const dir = mkdtempSync(join(tmpdir(), 'cartwright-sqlite-'));
const filename = join(dir, 'shared.db');
let fresh = 0;
const freshFile = () => join(dir, `empty-${++fresh}.db`);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

runStorageConformance({
  name: 'sqlite (file)',
  createStorage: async () => sqliteStorage({ filename }),
  createEmptyStorage: async () => sqliteStorage({ filename: freshFile() }),
  sharedDatabase: true,
  concurrentStorages: 4,
  supportsMultiProcess: nodeWorkerProcesses({
    script: fileURLToPath(new URL('./storage-worker.ts', import.meta.url)),
    env: async (freshDatabase) => ({
      CARTWRIGHT_WORKER_TARGET: JSON.stringify({
        kind: 'sqlite',
        filename: freshDatabase ? freshFile() : filename,
      }),
    }),
  }),
});
