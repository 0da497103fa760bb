import type { Scope } from '@cartwright/core';
import type { Storage } from '@cartwright/core/storage';

/**
 * Work for several OS processes on one database (see multi-process.ts). Every process migrates
 * first — all at the same moment — then: `reserve` attempts `attempts` parallel reservations of
 * one unit, each in its own transaction; `migrate` writes and reads back one customer.
 */
export type WorkerTask =
  | { kind: 'reserve'; scope: Scope; variant_id: string; attempts: number }
  | { kind: 'migrate'; scope: Scope };

export type TaskReport =
  | { kind: 'reserve'; reserved: number; refused: number }
  | { kind: 'migrate'; wrote: boolean };

/** Runs a task in `processes` OS processes at once and returns each process's report. */
export interface MultiProcessSupport {
  /**
   * @param options.freshDatabase run against a brand-new empty database instead of the suite's
   *   (so that the processes race to create the schema).
   */
  run(task: WorkerTask, processes: number, options?: { freshDatabase?: boolean }): Promise<TaskReport[]>;
}

/**
 * What `runStorageConformance` needs to know about a storage target. Nothing here names a
 * dialect: the suite speaks only to the `Storage` port, so an adapter for any database fits.
 */
export interface StorageConformanceOptions {
  /** Shown in the describe block, e.g. `sqlite (file)`. */
  name: string;
  /**
   * A storage on the suite's database, not migrated (the suite migrates it). Called once for the
   * storage every test shares; when `sharedDatabase` is true, also for the extra storages of the
   * concurrency tests — every call then returns another instance (connection or pool) on the
   * same database. The suite closes what it opens.
   */
  createStorage: () => Promise<Storage>;
  /** A storage on a brand-new empty database (migration tests). Default: `createStorage`. */
  createEmptyStorage?: () => Promise<Storage>;
  /**
   * Instances from `createStorage` share one database, so the concurrency tests open several
   * and race them (two connections, two pools). False (default): the concurrency tests race
   * parallel transactions on the one storage (e.g. SQLite in memory, a private database each).
   */
  sharedDatabase?: boolean;
  /** How many storages the shared-database concurrency tests open. Default 4. */
  concurrentStorages?: number;
  /**
   * Enables the tests that run several OS processes on one database (reservations from three
   * processes; three processes migrating one empty database at once). Usually
   * `nodeWorkerProcesses({ module, target })`. Without it those two tests are not defined.
   */
  supportsMultiProcess?: MultiProcessSupport | undefined;
  /**
   * Milliseconds a test (and opening the shared storage) may take. Default 30 000, whatever the
   * vitest config says; the multi-process tests allow 120 000.
   */
  timeoutMs?: number;
}
