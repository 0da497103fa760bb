import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createMariadbTestDatabase } from '@cartwright/storage-conformance/mariadb-server';
import { createTestDatabase } from '@cartwright/storage-conformance/postgres-server';
import { afterAll, beforeAll, inject } from 'vitest';
import { testRun } from '../../../storage-conformance/src/test-engines';

/**
 * `cartwright serve` as a child process, for tests of several processes sharing one database and
 * of crashes (`kill -9`): started from the TypeScript sources, on a free loopback port, resolved
 * once it prints `listening on …`.
 */
export const CLI_DIR = resolve(import.meta.dirname, '../..');

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
}

export type DatabaseTarget = 'sqlite' | 'postgres' | 'mariadb';
/**
 * The engines of the multi-process tests: SQLite and PostgreSQL, those of them that are CLI
 * targets of this run (test-engines.ts `matrix`: SQLite in the fast default run). MariaDB is not
 * among them: what the CLI does differently per engine is opening it, tested in mariadb.test.ts;
 * the rules under concurrency are the storage's, tested on MariaDB by the storage and http suites.
 */
export const DATABASE_TARGETS: readonly DatabaseTarget[] = (['sqlite', 'postgres'] as const).filter(
  (target) => testRun().matrix.includes(target),
);

/**
 * A fresh database for `target`: a SQLite file in `dir`, or a new database of the test
 * PostgreSQL or MariaDB server (global-setup.ts).
 */
export async function freshDatabaseUrl(
  target: DatabaseTarget,
  dir: string,
  name = 'shop.db',
): Promise<string> {
  if (target === 'sqlite') return join(dir, name);
  if (target === 'mariadb') {
    const serverUrl = inject('cartwrightMysqlUrl');
    if (!serverUrl) throw new Error(`MariaDB is not available: ${inject('cartwrightMysqlError')}`);
    return createMariadbTestDatabase(serverUrl);
  }
  const serverUrl = inject('cartwrightPgUrl');
  if (!serverUrl) throw new Error(`PostgreSQL is not available: ${inject('cartwrightPgError')}`);
  return createTestDatabase(serverUrl);
}

/**
 * One `cartwright <args>` run to its end, from the TypeScript sources in the CLI's folder, with
 * `env` over this process's environment: its exit code and everything it printed.
 */
export function runCartwright(
  args: readonly string[],
  env: Record<string, string> = {},
): { code: number | null; out: string } {
  const result = spawnSync(
    process.execPath,
    ['--conditions=@cartwright/source', '--import', 'tsx', 'src/bin.ts', ...args],
    { cwd: CLI_DIR, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 60_000 },
  );
  return { code: result.status, out: `${result.stdout}${result.stderr}` };
}

export function startServe(
  databaseUrl: string,
  env: Record<string, string> = {},
  args: readonly string[] = ['--no-worker'],
): Promise<ServeProcess> {
  const child = spawn(
    process.execPath,
    ['--conditions=@cartwright/source', '--import', 'tsx', 'src/bin.ts', 'serve', ...args],
    {
      cwd: CLI_DIR,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: databaseUrl, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not start:\n${out}`));
    }, 60_000);
    let started = false;
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = out.match(/listening on (http:\/\/\S+)/);
      if (!started && match?.[1]) {
        started = true;
        clearTimeout(timer);
        resolvePromise({ child, url: match[1], output: () => out });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      if (!started) reject(new Error(`serve exited with ${code}:\n${out}`));
    });
  });
}

/**
 * `count` serve processes on one database: the first migrates and creates the store, then the
 * others start together on the ready schema. If one fails to start, those started are killed.
 */
export async function startServers(
  databaseUrl: string,
  count: number,
  env: Record<string, string> = {},
  args?: readonly string[],
): Promise<ServeProcess[]> {
  const first = await startServe(databaseUrl, env, args);
  const rest = await Promise.allSettled(
    Array.from({ length: count - 1 }, () => startServe(databaseUrl, env, args)),
  );
  const started = [first, ...rest.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []))];
  const failed = rest.find((r) => r.status === 'rejected');
  if (failed) {
    await Promise.all(started.map(crash));
    throw failed.reason;
  }
  return started;
}

/**
 * For a `describe` block: `count` serve processes on one fresh `target` database
 * ({@link startServers}), started before its tests and stopped after them (the directory of the
 * database removed). `at(i)` is server `i` modulo `count`, to spread requests over them.
 */
export function useServers(
  target: DatabaseTarget,
  count: number,
  env: Record<string, string>,
  tmpPrefix = 'cartwright-serve-',
): { servers: ServeProcess[]; at: (i: number) => ServeProcess } {
  const servers: ServeProcess[] = [];
  const dir = mkdtempSync(join(tmpdir(), tmpPrefix));
  beforeAll(async () => {
    servers.push(...(await startServers(await freshDatabaseUrl(target, dir), count, env)));
  });
  afterAll(async () => {
    await Promise.all(servers.map(stop));
    rmSync(dir, { recursive: true, force: true });
  });
  return { servers, at: (i) => servers[i % servers.length]! };
}

/** SIGKILL (a crash: nothing is drained, nothing flushed) and wait until the process is gone. */
export function crash(server: ServeProcess): Promise<void> {
  return new Promise((resolvePromise) => {
    if (server.child.exitCode !== null || server.child.signalCode !== null) return resolvePromise();
    server.child.once('exit', () => resolvePromise());
    server.child.kill('SIGKILL');
  });
}

/** SIGTERM (drain and exit), SIGKILL after 10 s. */
export function stop(server: ServeProcess): Promise<void> {
  return new Promise((resolvePromise) => {
    if (server.child.exitCode !== null || server.child.signalCode !== null) return resolvePromise();
    server.child.once('exit', () => resolvePromise());
    server.child.kill('SIGTERM');
    setTimeout(() => server.child.kill('SIGKILL'), 10_000).unref();
  });
}

export interface CallResponse {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies checked field by field.
  body: any;
  headers: Headers;
}

/** One JSON request with an API key (and optional extra headers such as `idempotency-key`). */
export async function call(
  server: { url: string },
  method: string,
  path: string,
  key: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<CallResponse> {
  const res = await fetch(server.url + path, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body !== undefined && { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? null : JSON.parse(text), headers: res.headers };
}

/** Polls `probe` every 100 ms until it returns a value other than undefined, or throws after `timeoutMs`. */
export async function eventually<T>(
  probe: () => Promise<T | undefined>,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** `{ 200: 10, 422: 20 }`-style tally of response statuses. */
export function tally(responses: readonly { status: number }[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const r of responses) counts[r.status] = (counts[r.status] ?? 0) + 1;
  return counts;
}
