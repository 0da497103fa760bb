import { runStorageConformance } from '@cartwright/storage-conformance';
import { sqliteStorage } from '../src/sqlite';
import { describeSchemaContract } from './schema-contract';

// Every :memory: storage is its own private database: concurrency runs as parallel
// transactions on one storage (they queue on its single connection).
runStorageConformance({
  name: 'sqlite (memory)',
  createStorage: async () => sqliteStorage({ filename: ':memory:' }),
});

describeSchemaContract('sqlite', async () => sqliteStorage({ filename: ':memory:' }));
