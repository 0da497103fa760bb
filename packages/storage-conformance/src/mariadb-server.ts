import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureSystemUser, findMariadbPrograms, freePort } from './server-process';

/**
 * A throwaway MariaDB (or MySQL) for tests, like postgres-server.ts.
 *
 * - `CARTWRIGHT_TEST_MYSQL_URL` set (`mysql://root@127.0.0.1:3306/mysql`): that server is used as
 *   is (`stop` does nothing).
 * - Otherwise `mariadbd` and `mariadb-install-db` are looked up on PATH, /usr/sbin and /usr/bin; a
 *   data directory is created in a temp dir (`--auth-root-authentication-method=normal`: root
 *   without a password, over TCP too) and the server starts on 127.0.0.1 on a free port, socket
 *   in the temp dir, durability off (`innodb_flush_log_at_trx_commit=2`, `sync_binlog=0`, no
 *   binary log). As root the files belong to, and the server runs as, the system user `mysql`
 *   (created if missing); `mariadbd --user` drops privileges itself.
 * - Neither: throws — a CI run must never skip the MariaDB suite silently.
 *
 * `stop()` kills the server by its PID and removes the directory; exit and SIGINT/SIGTERM handlers
 * do the same if the caller never gets to call it. A run killed outright (SIGKILL) cannot clean up,
 * so each start first kills servers whose owning process is gone (`<dir>/owner.pid`,
 * `<dir>/server.pid`).
 */
export interface MariadbServer {
  /** Connection URL of the `mysql` database (user `root`, no password). */
  url: string;
  stop(): Promise<void>;
}

const SYSTEM_USER = 'mysql';
const PREFIX = 'cartwright-mariadb-';

export async function startMariadb(): Promise<MariadbServer> {
  const fromEnv = process.env.CARTWRIGHT_TEST_MYSQL_URL;
  if (fromEnv) return { url: fromEnv, stop: async () => {} };

  const programs = findMariadbPrograms();
  if (!programs) {
    throw new Error(
      'MariaDB is needed for the MariaDB storage tests: set CARTWRIGHT_TEST_MYSQL_URL to a server ' +
        '(mysql://user:pass@host:port/db), or install MariaDB so that mariadbd and mariadb-install-db are ' +
        'on PATH or in /usr/sbin (e.g. apt-get install mariadb-server).',
    );
  }
  const { server, installDb } = programs;
  const asRoot = process.getuid?.() === 0;
  if (asRoot) ensureSystemUser(SYSTEM_USER);
  reapOrphans();
  const dir = mkdtempSync(join(tmpdir(), PREFIX));
  const data = join(dir, 'data');
  const socket = join(dir, 'mariadb.sock');
  let child: ChildProcess | undefined;
  const stopSync = () => {
    if (child?.pid !== undefined && child.exitCode === null) {
      try {
        process.kill(child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    child = undefined;
    rmSync(dir, { recursive: true, force: true });
  };
  const onExit = () => stopSync();
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
    writeFileSync(join(dir, 'owner.pid'), String(process.pid));
    const user = asRoot ? [`--user=${SYSTEM_USER}`] : [];
    if (asRoot) execFileSync('chown', [`${SYSTEM_USER}:${SYSTEM_USER}`, dir]);
    execFileSync(
      installDb,
      [
        '--no-defaults',
        '--auth-root-authentication-method=normal',
        `--datadir=${data}`,
        '--skip-test-db',
        '--skip-name-resolve',
        ...user,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'], cwd: tmpdir() },
    );
    const port = await freePort();
    process.once('exit', onExit);
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    const log = join(dir, 'server.log');
    child = spawn(
      server,
      [
        '--no-defaults',
        `--datadir=${data}`,
        `--socket=${socket}`,
        `--port=${port}`,
        '--bind-address=127.0.0.1',
        `--pid-file=${join(dir, 'server.pid')}`,
        `--log-error=${log}`,
        // Its own temporary files (internal temporary tables), not the shared /tmp: a full test
        // run starts several servers, and a temp-table file gone from under one failed a migration.
        `--tmpdir=${dir}`,
        '--skip-log-bin',
        '--skip-name-resolve',
        '--innodb-flush-log-at-trx-commit=2',
        '--innodb-doublewrite=0',
        '--innodb-buffer-pool-size=128M',
        '--innodb-log-file-size=64M',
        '--max-connections=300',
        '--character-set-server=utf8mb4',
        '--collation-server=utf8mb4_bin',
        ...user,
      ],
      { stdio: 'ignore', detached: false },
    );
    writeFileSync(join(dir, 'server.pid.owner'), String(child.pid ?? ''));
    const url = `mysql://root@127.0.0.1:${port}/mysql`;
    await waitUntilReady(url, child, log);
    return {
      url,
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

/** mysql2/promise, a dev dependency of the packages whose tests start a server. */
type Mysql2 = typeof import('mysql2/promise');
let mysql2: Mysql2 | undefined;
function driver(): Mysql2 {
  mysql2 ??= createRequire(import.meta.url)('mysql2/promise') as Mysql2;
  return mysql2;
}

/** Runs statements on one short-lived connection to the server of `url`. */
export async function runMariadbStatements(url: string, statements: readonly string[]): Promise<void> {
  const connection = await driver().createConnection(url);
  try {
    for (const statement of statements) await connection.query(statement);
  } finally {
    await connection.end();
  }
}

/**
 * Creates a new empty database on the server of `url` and returns its URL — one per test file,
 * so that files running in parallel never see each other's rows.
 */
export async function createMariadbTestDatabase(url: string): Promise<string> {
  const name = `cartwright_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await runMariadbStatements(url, [`create database \`${name}\` character set utf8mb4 collate utf8mb4_bin`]);
  const target = new URL(url);
  target.pathname = `/${name}`;
  return target.toString();
}

/** Drops a database made by `createMariadbTestDatabase`. */
export async function dropMariadbTestDatabase(databaseUrl: string): Promise<void> {
  const target = new URL(databaseUrl);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  if (!/^cartwright_test_[a-z0-9_]+$/.test(name)) throw new Error(`refusing to drop '${name}'`);
  target.pathname = '/mysql';
  await runMariadbStatements(target.toString(), [`drop database if exists \`${name}\``]);
}

async function waitUntilReady(url: string, child: ChildProcess, log: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  let last: unknown;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      await runMariadbStatements(url, ['select 1']);
      return;
    } catch (error) {
      last = error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const tail = existsSync(log) ? readFileSync(log, 'utf8').split('\n').slice(-20).join('\n') : '';
  throw new Error(`MariaDB did not start: ${String(last ?? `exit code ${child.exitCode}`)}\n${tail}`);
}

/** Kills and removes throwaway servers whose owning process no longer exists. */
function reapOrphans(): void {
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
      const pid = Number(readFileSync(join(dir, 'server.pid.owner'), 'utf8'));
      if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) process.kill(pid, 'SIGKILL');
    } catch {
      // no server, or already gone
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
