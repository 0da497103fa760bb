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

export interface StorageConformanceOptions {
  /** Shown in the describe block, e.g. `sqlite (file)`. */
  name: string;
  /**
   * A storage on the suite's database. The suite migrates it. When `sharedDatabase` is true,
   * every call returns another instance (connection or pool) on the same database.
   */
  createStorage: () => Promise<Storage>;
  /** A storage on a brand-new empty database (migration tests). Default: `createStorage`. */
  createEmptyStorage?: () => Promise<Storage>;
  /** Instances from `createStorage` share one database, so concurrency tests use several. */
  sharedDatabase?: boolean;
  /** How many storages the shared-database concurrency tests open. Default 4. */
  concurrentStorages?: number;
  /** Enables the test that reserves from several OS processes at once. */
  supportsMultiProcess?: MultiProcessSupport | undefined;
}
