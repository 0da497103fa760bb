import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { SERVER_NODE_FLAGS } from '@cartwright/cli';
import type { Fixture } from '../fixture/seed';
import { BENCH_DIR } from '../lib/results';
import { serverBundle } from './server-bundle';

/** What the server process reports about itself (see server-process.ts). */
export interface ServerStats {
  pid: number;
  /** Microseconds of CPU since the process started. */
  cpu: { user: number; system: number };
  /** Of `cpu`, the main (JavaScript) thread's microseconds (Linux; null elsewhere, 10 ms ticks). */
  main_thread_cpu: number | null;
  memory: { rss: number; heapTotal: number; heapUsed: number; external: number; arrayBuffers: number };
  /** V8's heap spaces: committed (`size`) and used bytes. */
  heap_spaces: Record<string, { size: number; used: number }>;
  requests: number;
  in_flight: number;
}

export interface ServerHandle {
  url: string;
  pid: number;
  /** Set when the server seeded the fixture itself (`seedProducts`). */
  fixture: Fixture | null;
  stats(): Promise<ServerStats>;
  /** A full GC, then the stats. */
  gc(): Promise<ServerStats>;
  /**
   * Waits until no request is in flight (autocannon leaves some behind when it stops), or until
   * the count has not moved for 1 s (requests that never finish). Returns the count left.
   */
  settle(): Promise<number>;
  /** Requests the server is still handling (method, URL, start time). */
  inflight(): Promise<string[]>;
  /** Turns the storage's storefront page cache (storage-kysely) on or off. */
  pageCache(on: boolean): Promise<void>;
  profileStart(): Promise<void>;
  /** Writes the `.cpuprofile` of the window since `profileStart` to `file`. */
  profileStop(file: string): Promise<void>;
  /** Graceful exit (a `--cpu-prof` profile is written). */
  exit(): Promise<void>;
}

export interface ServerOptions {
  kind: 'engine' | 'bare';
  databaseUrl?: string;
  /** Seed the bench fixture with this many products before listening. */
  seedProducts?: number;
  /** Run the bundle that carries a source map (for `profileStart`/`profileStop`). */
  profiling?: boolean;
  port?: number;
}

/**
 * Starts server-process.ts — bundled into plain JavaScript (see server-bundle.ts) and run by
 * plain `node --expose-gc` with the flags the server is meant to run with (`SERVER_NODE_FLAGS`,
 * as `pnpm start` passes them) — as a child process, and waits until it listens.
 */
export async function startServerProcess(options: ServerOptions): Promise<ServerHandle> {
  const argv = ['--expose-gc', ...SERVER_NODE_FLAGS, await serverBundle(options.profiling === true)];
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, argv, {
    cwd: BENCH_DIR,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: {
      ...process.env,
      BENCH_SERVER: options.kind,
      DATABASE_URL: options.databaseUrl ?? ':memory:',
      BENCH_SEED_PRODUCTS: String(options.seedProducts ?? 0),
      PORT: String(options.port ?? 0),
    },
  });
  child.stderr.on('data', (chunk: Buffer) => process.stderr.write(`[server ${child.pid}] ${chunk}`));
  const waiting: Array<(line: string) => void> = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const ready = new Promise<{ url: string; pid: number; fixture: Fixture | null }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server did not start within 300 s')), 300_000);
    child.once('exit', (code) => reject(new Error(`server exited with code ${code} before it was ready`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith('READY ')) {
        clearTimeout(timer);
        resolve(JSON.parse(line.slice(6)));
      } else if (/^(STATS|OK|ERROR)\b/.test(line)) {
        waiting.shift()?.(line);
      } else {
        process.stdout.write(`[server ${child.pid}] ${line}\n`);
      }
    });
  });
  const info = await ready;

  const ask = (command: string) =>
    new Promise<string>((resolve, reject) => {
      waiting.push((line) => (line.startsWith('ERROR') ? reject(new Error(line)) : resolve(line)));
      child.stdin.write(`${command}\n`);
    });
  const askStats = async (command: string) => JSON.parse((await ask(command)).slice(6)) as ServerStats;
  return {
    ...info,
    stats: () => askStats('stats'),
    gc: () => askStats('gc'),
    async settle() {
      const deadline = Date.now() + 30_000;
      let last = -1;
      let since = Date.now();
      for (;;) {
        const { in_flight } = await askStats('stats');
        if (in_flight === 0 || Date.now() > deadline) return in_flight;
        if (in_flight !== last) {
          last = in_flight;
          since = Date.now();
        } else if (Date.now() - since > 1000) {
          return in_flight;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async inflight() {
      return JSON.parse((await ask('inflight')).slice(3)) as string[];
    },
    async pageCache(on: boolean) {
      await ask(`page-cache ${on ? 'on' : 'off'}`);
    },
    async profileStart() {
      await ask('profile-start');
    },
    async profileStop(file: string) {
      await ask(`profile-stop ${file}`);
    },
    async exit() {
      if (child.exitCode !== null) return;
      child.stdin.write('exit\n');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** CPU microseconds (user + system) between two stats of the same process. */
export function cpuMicros(before: ServerStats, after: ServerStats): number {
  return after.cpu.user - before.cpu.user + (after.cpu.system - before.cpu.system);
}

/** The main thread's CPU microseconds between two stats, or null where it is not known. */
export function mainThreadCpuMicros(before: ServerStats, after: ServerStats): number | null {
  if (before.main_thread_cpu === null || after.main_thread_cpu === null) return null;
  return after.main_thread_cpu - before.main_thread_cpu;
}
