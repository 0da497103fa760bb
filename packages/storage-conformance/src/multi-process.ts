import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Storage } from '@cartwright/core/storage';
import { reserveInventory } from '@cartwright/core/storage-rules';
import type { MultiProcessSupport, TaskReport, WorkerTask } from './options';

/** How the multi-process cases reach an adapter's database from a fresh Node process. */
export type NodeWorkerOptions = (
  | {
      /**
       * Absolute path or `file:` URL of an ES module (or anything `import()` loads) whose default
       * export — or named export `openStorage` — opens a storage on the database `target`
       * describes: `(target) => Storage | Promise<Storage>`. It must not migrate. This package's
       * own worker (`dist/worker.js`, plain JavaScript) imports it in every process.
       */
      module: string | URL;
      /**
       * Where the database is, as a JSON value handed to the module's function in every process:
       * the suite's database (`freshDatabase` false) or a brand-new empty one (true).
       */
      target: (freshDatabase: boolean) => unknown;
      script?: never;
      env?: never;
    }
  | {
      /** Absolute path of a worker script of your own that calls `serveWorkerTask`. */
      script: string;
      /** Environment telling that script where the database is: the suite's, or a fresh empty one. */
      env: (freshDatabase: boolean) => Promise<Record<string, string>>;
      module?: never;
      target?: never;
    }
) & {
  /**
   * Node options of the worker processes. Default: none for JavaScript; for a TypeScript worker
   * or module (`.ts`, `.mts`, `.cts`), `--conditions=@cartwright/source --import tsx` (tsx must
   * then be installed where the tests run).
   */
  execArgv?: readonly string[];
  /** Milliseconds before a silent worker is killed. Default 60 s. */
  timeoutMs?: number;
};

const TYPESCRIPT = /\.[cm]?ts$/;
const TSX_ARGV = ['--conditions=@cartwright/source', '--import', 'tsx'];

/**
 * The worker this package ships, next to this module: `dist/worker.js` in the built package,
 * `src/worker.ts` when the sources run (inside the repository, through tsx).
 */
export function conformanceWorkerPath(): string {
  const here = import.meta.url;
  return fileURLToPath(
    new URL(TYPESCRIPT.test(new URL(here).pathname) ? './worker.ts' : './worker.js', here),
  );
}

/**
 * Several OS processes against one database. The parent spawns each worker with the task in
 * `CARTWRIGHT_WORKER_TASK`; a worker opens its storage, prints `ready`, waits for `go` on stdin
 * (so that all processes start together), migrates, runs the task and prints its report as JSON.
 *
 * With `module`, the worker is this package's own (`conformanceWorkerPath()`): it imports the
 * module named in `CARTWRIGHT_CONFORMANCE_MODULE` and opens the storage with the JSON target in
 * `CARTWRIGHT_CONFORMANCE_TARGET`. With `script`, the worker is your script (it calls
 * `serveWorkerTask`).
 */
export function nodeWorkerProcesses(options: NodeWorkerOptions): MultiProcessSupport {
  const moduleUrl =
    options.module === undefined
      ? undefined
      : options.module instanceof URL
        ? options.module.href
        : options.module.startsWith('file:')
          ? options.module
          : pathToFileURL(resolve(options.module)).href;
  const script = moduleUrl === undefined ? (options.script as string) : conformanceWorkerPath();
  const typescript =
    TYPESCRIPT.test(script) || (moduleUrl !== undefined && TYPESCRIPT.test(new URL(moduleUrl).pathname));
  const execArgv = options.execArgv ?? (typescript ? TSX_ARGV : []);
  const environment = async (freshDatabase: boolean): Promise<Record<string, string>> => {
    if (moduleUrl === undefined) return (options.env as NonNullable<NodeWorkerOptions['env']>)(freshDatabase);
    const target = await (options.target as (fresh: boolean) => unknown)(freshDatabase);
    return {
      CARTWRIGHT_CONFORMANCE_MODULE: moduleUrl,
      CARTWRIGHT_CONFORMANCE_TARGET: JSON.stringify(target ?? null),
    };
  };
  return {
    async run(task, processes, runOptions = {}): Promise<TaskReport[]> {
      const env = await environment(runOptions.freshDatabase === true);
      const children = Array.from({ length: processes }, () =>
        spawn(process.execPath, [...execArgv, script], {
          env: { ...process.env, ...env, CARTWRIGHT_WORKER_TASK: JSON.stringify(task) },
          stdio: ['pipe', 'pipe', 'pipe'],
        }),
      );
      const timer = setTimeout(() => {
        for (const child of children) child.kill('SIGKILL');
      }, options.timeoutMs ?? 60_000);
      try {
        const workers = children.map((child) => {
          let stderr = '';
          child.stderr?.on('data', (chunk: Buffer) => {
            stderr += chunk.toString();
          });
          const lines = createInterface({ input: child.stdout! });
          const queue: string[] = [];
          const waiters: Array<(line: string) => void> = [];
          lines.on('line', (line) => {
            const waiter = waiters.shift();
            if (waiter) waiter(line);
            else queue.push(line);
          });
          const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
          const nextLine = () =>
            new Promise<string>((resolve, reject) => {
              const queued = queue.shift();
              if (queued !== undefined) return resolve(queued);
              waiters.push(resolve);
              exited.then((code) => reject(new Error(`worker exited (${code}) before answering: ${stderr}`)));
            });
          return { child, nextLine, exited };
        });
        for (const worker of workers) expectLine(await worker.nextLine(), 'ready');
        for (const worker of workers) worker.child.stdin?.end('go\n');
        const reports = await Promise.all(
          workers.map(async (worker) => JSON.parse(await worker.nextLine()) as TaskReport),
        );
        await Promise.all(workers.map((worker) => worker.exited));
        return reports;
      } finally {
        clearTimeout(timer);
        for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
      }
    },
  };
}

function expectLine(line: string, expected: string): void {
  if (line !== expected) throw new Error(`worker said '${line}', expected '${expected}'`);
}

/** Runs a task's work in this process (after migrating). */
export async function runTask(storage: Storage, task: WorkerTask): Promise<TaskReport> {
  await storage.migrate();
  if (task.kind === 'migrate') {
    const id = `cus_${process.pid}_${Date.now()}`;
    const record = {
      id,
      store_id: task.scope.store_id,
      mode: task.scope.mode,
      email: `${id}@example.com`,
      first_name: null,
      last_name: null,
      phone: null,
      external_id: null,
      status: 'active' as const,
      tags: [],
      metadata: { pid: process.pid },
      password_hash: null,
      created_at: Date.now(),
      updated_at: Date.now(),
    };
    await storage.transaction((tx) => tx.customers.insert(record));
    const read = await storage.read((r) => r.customers.get(task.scope, id));
    return { kind: 'migrate', wrote: read?.metadata.pid === process.pid };
  }
  const results = await Promise.all(
    Array.from({ length: task.attempts }, () =>
      storage
        .transaction(async (tx) => {
          const result = await reserveInventory(
            tx,
            task.scope,
            [{ variant_id: task.variant_id, quantity: 1 }],
            Date.now(),
          );
          if (!result.ok) throw new RefusedError();
          return true;
        })
        .catch((error: unknown) => {
          if (error instanceof RefusedError) return false;
          throw error;
        }),
    ),
  );
  return {
    kind: 'reserve',
    reserved: results.filter(Boolean).length,
    refused: results.filter((r) => !r).length,
  };
}

class RefusedError extends Error {}

/**
 * The worker side: reads the task, opens the storage (without migrating), announces `ready`,
 * waits for `go`, migrates and runs the task, prints the report and closes the storage.
 */
export async function serveWorkerTask(openStorage: () => Promise<Storage>): Promise<void> {
  const task = JSON.parse(process.env.CARTWRIGHT_WORKER_TASK ?? 'null') as WorkerTask | null;
  if (!task) throw new Error('CARTWRIGHT_WORKER_TASK is not set');
  const storage = await openStorage();
  try {
    const go = new Promise<void>((resolve) => {
      const lines = createInterface({ input: process.stdin });
      lines.once('line', () => {
        lines.close();
        process.stdin.destroy(); // nothing more to read; let the process exit when done
        resolve();
      });
    });
    process.stdout.write('ready\n');
    await go;
    const report = await runTask(storage, task);
    process.stdout.write(`${JSON.stringify(report)}\n`);
  } finally {
    await storage.close();
  }
}
