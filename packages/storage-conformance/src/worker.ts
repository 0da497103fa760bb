import type { Storage } from '@cartwright/core/storage';
import { serveWorkerTask } from './multi-process';

/**
 * The worker process of `nodeWorkerProcesses({ module, target })`, shipped built as
 * `dist/worker.js` (plain JavaScript: a consumer needs no TypeScript loader). It imports the
 * adapter's module named in `CARTWRIGHT_CONFORMANCE_MODULE`, opens a storage with the JSON target
 * in `CARTWRIGHT_CONFORMANCE_TARGET` and serves the task in `CARTWRIGHT_WORKER_TASK`.
 */
type OpenStorage = (target: unknown) => Storage | Promise<Storage>;

const moduleUrl = process.env.CARTWRIGHT_CONFORMANCE_MODULE;
if (!moduleUrl) throw new Error('CARTWRIGHT_CONFORMANCE_MODULE is not set');
const target: unknown = JSON.parse(process.env.CARTWRIGHT_CONFORMANCE_TARGET ?? 'null');
const adapter = (await import(moduleUrl)) as { default?: unknown; openStorage?: unknown };
const open = (typeof adapter.default === 'function' ? adapter.default : adapter.openStorage) as
  | OpenStorage
  | undefined;
if (typeof open !== 'function') {
  throw new Error(
    `${moduleUrl} must export a function opening a storage (default export or \`openStorage\`): (target) => Storage | Promise<Storage>`,
  );
}
await serveWorkerTask(async () => open(target));
