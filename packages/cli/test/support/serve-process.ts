import { type ChildProcess, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createTestDatabase } from '@cartwright/storage-conformance/postgres-server';
import { inject } from 'vitest';

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

export type DatabaseTarget = 'sqlite' | 'postgres';
export const DATABASE_TARGETS: readonly DatabaseTarget[] = ['sqlite', 'postgres'];

/** A fresh database for `target`: a SQLite file in `dir`, or a new database of the test cluster. */
export async function freshDatabaseUrl(
  target: DatabaseTarget,
  dir: string,
  name = 'shop.db',
): Promise<string> {
  if (target === 'sqlite') return join(dir, name);
  const serverUrl = inject('cartwrightPgUrl');
  if (!serverUrl) throw new Error(`PostgreSQL is not available: ${inject('cartwrightPgError')}`);
  return createTestDatabase(serverUrl);
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
