import type { Repositories, Storage } from '@cartwright/core/storage';
import { afterAll, beforeAll } from 'vitest';
import type { StorageConformanceOptions } from './options';

/** What every suite file gets: the options and the storage opened (and migrated) once per run. */
export interface SuiteContext {
  readonly options: StorageConformanceOptions;
  /** The storage shared by the tests of this run. */
  storage(): Storage;
  /** Shorthand: one transaction on the shared storage. */
  tx<T>(fn: (tx: Repositories) => Promise<T>): Promise<T>;
  /** Shorthand: reads outside a transaction on the shared storage. */
  read<T>(fn: (repos: Repositories) => Promise<T>): Promise<T>;
  /** Opens more storages on the same database (shared-database targets) or reuses the shared one. */
  openStorages(count: number): Promise<{ storages: Storage[]; close(): Promise<void> }>;
}

export function createSuiteContext(options: StorageConformanceOptions): SuiteContext {
  let shared: Storage | undefined;
  beforeAll(async () => {
    shared = await options.createStorage();
    await shared.migrate();
  }, options.timeoutMs ?? 30_000);
  afterAll(async () => {
    await shared?.close();
  }, options.timeoutMs ?? 30_000);
  const storage = (): Storage => {
    if (!shared) throw new Error('storage not opened yet');
    return shared;
  };
  return {
    options,
    storage,
    tx: (fn) => storage().transaction(fn),
    read: (fn) => storage().read(fn),
    async openStorages(count) {
      if (!options.sharedDatabase)
        return { storages: Array.from({ length: count }, storage), close: async () => {} };
      const storages = await Promise.all(Array.from({ length: count }, () => options.createStorage()));
      return {
        storages,
        close: async () => {
          await Promise.all(storages.map((s) => s.close()));
        },
      };
    },
  };
}
