/**
 * @cartwright/storage-conformance — the suite every Cartwright storage adapter must pass, and
 * the helpers its test files use (record fixtures, several OS processes, a throwaway Postgres).
 */
export * from './expect-error';
export * from './fixtures';
export {
  conformanceWorkerPath,
  type NodeWorkerOptions,
  nodeWorkerProcesses,
  runTask,
  serveWorkerTask,
} from './multi-process';
export type { MultiProcessSupport, StorageConformanceOptions, TaskReport, WorkerTask } from './options';
export { createTestDatabase, dropTestDatabase, type PostgresServer, startPostgres } from './postgres-server';
export { runStorageConformance } from './run-storage-conformance';
