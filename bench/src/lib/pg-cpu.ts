import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';

/**
 * PostgreSQL's own CPU, from Linux's process accounting: the postmaster and every process it
 * forked (backends, walwriter, checkpointer, autovacuum, …), utime + stime of
 * `/proc/<pid>/stat` in clock ticks (`getconf CLK_TCK`, usually 100 → 10 ms resolution). The
 * postmaster's cutime + cstime (children it has reaped) are added too, so a backend that ends
 * inside a window still counts. Sampled before and after a measured window, like the server's
 * `process.cpuUsage()`.
 *
 * Works for a cluster on this machine only (the throwaway one of the bench, or the server of
 * `CARTWRIGHT_TEST_PG_URL` when it runs here); elsewhere {@link openPgCpu} returns null and the
 * figures are reported as unknown.
 */
export interface PgCpu {
  postmaster: number;
  /** CPU milliseconds of the whole cluster since it started (minus the excluded processes). */
  sampleMs(): number;
}

let ticksPerSecond: number | undefined;
function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** The fields after `(comm)` of `/proc/<pid>/stat` (field 3, state, is index 0), or null. */
function statFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** Parent pid (field 4 of `/proc/<pid>/stat`), or null. */
export function parentPid(pid: number): number | null {
  const fields = statFields(pid);
  return fields ? Number(fields[1]) : null;
}

function isPostgres(pid: number): boolean {
  try {
    const comm = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    return comm.startsWith('postgres') || comm.startsWith('postmaster');
  } catch {
    return false;
  }
}

/**
 * The postmaster's pid: the first line of `<dataDirectory>/postmaster.pid` when the data directory
 * is known, else the parent of a backend of `databaseUrl` (`select pg_backend_pid()`); null when
 * the server does not run on this machine.
 */
export async function postmasterPid(databaseUrl: string, dataDirectory?: string): Promise<number | null> {
  if (dataDirectory) {
    try {
      const pid = Number(readFileSync(join(dataDirectory, 'postmaster.pid'), 'utf8').split('\n')[0]);
      if (pid > 0 && isPostgres(pid)) return pid;
    } catch {
      // fall back to the backend's parent
    }
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const result = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
    const backend = result.rows[0]?.pid;
    if (!backend || !isPostgres(backend)) return null;
    const parent = parentPid(backend);
    return parent && isPostgres(parent) ? parent : null;
  } finally {
    await client.end();
  }
}

/** Ticks of the postmaster (with its reaped children) and of every live child of it. */
function clusterTicks(postmaster: number, exclude: ReadonlySet<number>): number {
  const own = statFields(postmaster);
  if (!own) return Number.NaN;
  // utime, stime, cutime, cstime: fields 14–17 → indexes 11–14 here.
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === postmaster || exclude.has(pid)) continue;
    const fields = statFields(pid);
    if (!fields || Number(fields[1]) !== postmaster) continue;
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks;
}

/**
 * A reader of the cluster's CPU for `databaseUrl` (or null when it is not on this machine).
 * `exclude`: backends not to count (e.g. the bench's own sampling connection).
 */
export async function openPgCpu(
  databaseUrl: string,
  options: { dataDirectory?: string; exclude?: Iterable<number> } = {},
): Promise<PgCpu | null> {
  if (process.platform !== 'linux') return null;
  let pid: number | null;
  try {
    pid = await postmasterPid(databaseUrl, options.dataDirectory);
  } catch {
    return null;
  }
  if (pid === null) return null;
  const postmaster = pid;
  const exclude = new Set(options.exclude ?? []);
  const tick = 1000 / clockTicks();
  return { postmaster, sampleMs: () => clusterTicks(postmaster, exclude) * tick };
}

/** PostgreSQL CPU ms over `body` (null when unknown), with `body`'s result. */
export async function measurePgCpu<T>(
  pgCpu: PgCpu | null,
  body: () => Promise<T>,
): Promise<{ result: T; pgCpuMs: number | null }> {
  const before = pgCpu?.sampleMs() ?? Number.NaN;
  const result = await body();
  const after = pgCpu?.sampleMs() ?? Number.NaN;
  const delta = after - before;
  return { result, pgCpuMs: Number.isFinite(delta) ? delta : null };
}
