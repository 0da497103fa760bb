/**
 * The server under test, run as its own process by the HTTP benchmarks (never imported).
 *
 * - `BENCH_SERVER=engine` (default): `createServer(createNodeListener(createApiHandler(engine)))` on
 *   the storage of `DATABASE_URL`, the mount of packages/cli/src/server.ts minus its per-request
 *   log line (`handleNodeRequest` is what `createNodeListener` calls; the bench keeps its promise to
 *   count requests in flight). With `BENCH_SEED_PRODUCTS=N` (N > 0) it seeds the bench fixture first.
 * - `COMMERCE_API_LOGS=writes|all|off`: the handler's API logs (unset: its default, `writes`).
 * - `BENCH_PG_POOL_MAX=N`: on PostgreSQL, a pool of N connections instead of the storage's default
 *   (`openStorage` takes no pool size; the settings benchmark varies it).
 * - `BENCH_SERVER=bare`: the ceiling — a bare node:http server answering a fixed JSON body.
 *
 * It listens on 127.0.0.1:`PORT` (0 = any free port) and prints one line `READY <json>` with its
 * URL (and the fixture when it seeded). The bench talks to it over stdin, one command per line,
 * never over HTTP, so the product gets no extra route:
 * - `stats` → `STATS <json>`: `process.cpuUsage()` (and the main thread's share, on Linux),
 *   `process.memoryUsage()`, V8's heap spaces, requests served, and `storage`: statements and
 *   round trips sent so far, from the storage's own `stats()` when it has one (PostgreSQL), else
 *   from the driver-level counter when `BENCH_COUNT_STATEMENTS=1` (SQLite: round trips =
 *   statements), else null;
 * - `gc` → runs a full GC (the process is started with --expose-gc) and answers like `stats`;
 * - `inflight` → `OK <json>`: the requests being handled (method, URL, start);
 * - `page-cache on|off` → `OK`: turns the storage's storefront page cache on or off;
 * - `profile-start` → `OK`: starts V8's CPU profiler (node:inspector, as `--cpu-prof` does);
 * - `profile-stop <file>` → `OK`: stops it and writes the `.cpuprofile` to `<file>`;
 * - `exit` → stops accepting, waits (≤ 10 s) for requests in flight that still progress, closes
 *   the engine, exits 0.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { getHeapSpaceStatistics } from 'node:v8';
import { nodeCrypto, openStorage } from '@cartwright/cli';
import { createEngine } from '@cartwright/core';
import { type EngineInternals as Engine, engineInternals } from '@cartwright/core/internal';
import { createApiHandler } from '@cartwright/http';
import { handleNodeRequest } from '@cartwright/http/node';
import { type Fixture, seedFixture } from '../fixture/seed';
import { queryCounterFromEnv } from '../lib/query-counter';
import { type CpuProfile, saveProfile, startProfiling } from '../profile/cpu-profile';

/** The ceiling's fixed answer: a small JSON object, like a tiny API response. */
const BARE_BODY = JSON.stringify({ object: 'ping', ok: true, message: 'fixed body for the ceiling' });

let requests = 0;
let inFlight = 0;
/**
 * Requests being handled, with their start (`Date.now()`), described only when the `inflight`
 * command lists them: formatting a line per request cost the measured server ~3 % of its CPU.
 */
const pendingRequests = new Map<number, { req: IncomingMessage; since: number }>();
let requestSeq = 0;
let stopProfiling: (() => Promise<CpuProfile>) | null = null;
let engine: Engine | null = null;
let fixture: Fixture | null = null;
/** The storage's page-cache bound before the first `page-cache` command. */
let pageCacheBound: number | undefined;
/** Resolves when the response is written (the engine's work for the request is done). */
let listener: (req: IncomingMessage, res: ServerResponse) => Promise<void> | undefined;

if (process.env.BENCH_SERVER === 'bare') {
  const body = Buffer.from(BARE_BODY);
  listener = (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
    res.end(body);
    return undefined;
  };
} else {
  const databaseUrl = process.env.DATABASE_URL ?? ':memory:';
  const poolMax = Number(process.env.BENCH_PG_POOL_MAX ?? 0);
  engine = engineInternals(
    await createEngine({
      storage:
        poolMax > 0 && /^postgres(ql)?:\/\//i.test(databaseUrl)
          ? (await import('@cartwright/storage-kysely/postgres')).postgresStorage({
              connectionString: databaseUrl,
              max: poolMax,
            })
          : await openStorage(databaseUrl),
      crypto: nodeCrypto,
      // A load test from one loopback address (docs/contract.md#rate-limits): every request is still counted in
      // its bucket — the cost of the limits stays in the figures — but no budget is ever spent.
      rateLimits: {
        secret_key: { limit: 1_000_000_000, window_seconds: 1 },
        publishable_key: { limit: 1_000_000_000, window_seconds: 1 },
      },
    }),
  );
  const seed = Number(process.env.BENCH_SEED_PRODUCTS ?? 0);
  if (seed > 0) fixture = await seedFixture(engine, { products: seed });
  // What createNodeListener does, keeping the promise so that in-flight work can be counted.
  // `COMMERCE_API_LOGS` as `cartwright serve` reads it (unset: the handler's default, `writes`).
  const apiLogs = process.env.COMMERCE_API_LOGS as 'writes' | 'all' | 'off' | undefined;
  const handler = createApiHandler(engine, apiLogs ? { apiLogs } : {});
  listener = (req, res) => handleNodeRequest(handler, req, res);
}

const server = createServer((req, res) => {
  requests++;
  const pending = listener(req, res);
  if (pending) {
    inFlight++;
    const id = ++requestSeq;
    pendingRequests.set(id, { req, since: Date.now() });
    const done = () => {
      inFlight--;
      pendingRequests.delete(id);
    };
    pending.then(done, done);
  }
});
server.keepAliveTimeout = 65_000;
await new Promise<void>((resolve) => server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', resolve));
const { port } = server.address() as AddressInfo;

/**
 * CPU microseconds of the main (JavaScript) thread alone, from Linux's per-thread accounting
 * (`/proc/self/task/<pid>/stat`, utime + stime in clock ticks of 10 ms); null elsewhere. The rest
 * of `process.cpuUsage()` is V8's helper threads (parallel scavenges, concurrent marking and
 * sweeping) and libuv's pool.
 */
function mainThreadCpuMicros(): number | null {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return null;
  }
}

/** V8's heap spaces: committed and used bytes by space (new, old, code, large objects…). */
function heapSpaces(): Record<string, { size: number; used: number }> {
  return Object.fromEntries(
    getHeapSpaceStatistics()
      .filter((space) => space.space_size > 0)
      .map((space) => [space.space_name, { size: space.space_size, used: space.space_used_size }]),
  );
}

const statementCounter = queryCounterFromEnv();

/** Statements and round trips sent by the storage so far (see the header), or null. */
function storageTraffic(): { statements: number; round_trips: number; source: string } | null {
  const own = (
    engine?.storage as { stats?: () => { statements: number; roundTrips: number } } | undefined
  )?.stats?.();
  if (own) return { statements: own.statements, round_trips: own.roundTrips, source: 'storage' };
  if (!statementCounter) return null;
  const statements = statementCounter.count();
  return { statements, round_trips: statements, source: 'driver' };
}

function stats() {
  return {
    pid: process.pid,
    cpu: process.cpuUsage(),
    main_thread_cpu: mainThreadCpuMicros(),
    memory: process.memoryUsage(),
    heap_spaces: heapSpaces(),
    requests,
    in_flight: inFlight,
    storage: storageTraffic(),
  };
}

async function exit(): Promise<never> {
  server.close();
  server.closeIdleConnections();
  // Wait for requests in flight, but not for ones that no longer make progress (aborted
  // requests the HTTP adapter never finishes — see the benchmark report).
  const deadline = Date.now() + 10_000;
  let last = inFlight;
  let since = Date.now();
  while (inFlight > 0 && Date.now() < deadline && Date.now() - since < 1000) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    if (inFlight !== last) {
      last = inFlight;
      since = Date.now();
    }
  }
  server.closeAllConnections();
  await engine?.close();
  process.exit(0);
}

async function command(line: string): Promise<string> {
  const [name, arg] = line.trim().split(/\s+/, 2);
  switch (name) {
    case 'stats':
      return `STATS ${JSON.stringify(stats())}`;
    case 'gc':
      (globalThis as { gc?: () => void }).gc?.();
      return `STATS ${JSON.stringify(stats())}`;
    case 'inflight':
      return `OK ${JSON.stringify(
        [...pendingRequests.values()].map(
          ({ req, since }) => `${req.method} ${req.url} since ${new Date(since).toISOString()}`,
        ),
      )}`;
    case 'profile-start':
      stopProfiling = await startProfiling();
      return 'OK';
    case 'profile-stop': {
      if (!stopProfiling || !arg) return 'ERROR no profile running or no file';
      saveProfile(arg, await stopProfiling());
      stopProfiling = null;
      return 'OK';
    }
    case 'page-cache': {
      // Storefront pages kept by catalog version (storage-kysely): 'off' to measure the reads
      // behind them, 'on' to restore the bound the storage started with.
      const pages = (
        engine?.storage as
          | { storefrontPages?: { maxEntries: number; resize(o: { maxEntries: number }): void } }
          | undefined
      )?.storefrontPages;
      if (!pages || (arg !== 'on' && arg !== 'off'))
        return 'ERROR page-cache needs a Kysely storage and on|off';
      pageCacheBound ??= pages.maxEntries;
      pages.resize({ maxEntries: arg === 'on' ? pageCacheBound : 0 });
      return 'OK';
    }
    case 'exit':
      return exit();
    default:
      return `ERROR unknown command '${line}'`;
  }
}

const commands = createInterface({ input: process.stdin });
let queue = Promise.resolve();
commands.on('line', (line) => {
  // One answer line per command, in order.
  queue = queue.then(async () => {
    process.stdout.write(`${await command(line)}\n`);
  });
});
// The bench died: do not linger.
commands.on('close', () => process.exit(0));

process.stdout.write(
  `READY ${JSON.stringify({ url: `http://127.0.0.1:${port}`, pid: process.pid, fixture })}\n`,
);
