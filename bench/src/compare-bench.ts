/**
 * Same-minute comparison of this tree with an earlier revision: the way every before/after figure
 * of docs/benchmarks-before-after.md is judged, because a shared machine drifts by tens of per
 * cent over hours (the bare-server ceiling moved from 21,839 to 60,103 req/s between runs).
 *
 *   node --conditions=@cartwright/source --import tsx bench/src/compare-bench.ts --base <rev> [--rounds 3]
 *
 * The revision is unpacked with `git archive` into a temporary directory that shares this tree's
 * installed `node_modules` (the lockfile must not have changed in between), then the two trees
 * take turns: each round runs `compare/probe.ts` once in each, in alternating order. The probe and
 * the server harness around the engine (`http/server-process.ts`) are this tree's in both, so
 * only the product's code differs. Prints every probe and the medians with the change. Environment:
 * `COMPARE_SECONDS` (window length, default 5), `COMPARE_WARMUP` (default 5), `COMPARE_PRODUCTS`
 * (default 10,000), `COMPARE_DATABASE=file` (a SQLite file in WAL mode instead of memory),
 * `COMPARE_DATABASE=postgres` (one throwaway PostgreSQL cluster — or the server of
 * `CARTWRIGHT_TEST_PG_URL` — started here; each probe's server gets a fresh database on it, seeded
 * by its own tree with the same fixture; the base must have bench/src/fixture/postgres-catalog.ts).
 * Besides orders/s and server CPU per order, the probes report round trips and statements per order
 * and, on PostgreSQL, PostgreSQL's own CPU per order.
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

interface Probe {
  catalog_rps: number;
  catalog_cpu_us: number;
  catalog_p99_ms: number;
  flow_ops: number;
  flow_cpu_ms: number;
  /** PostgreSQL's own CPU per order (null on SQLite or when not measurable). */
  flow_pg_cpu_ms?: number | null;
  flow_round_trips?: number | null;
  flow_statements?: number | null;
  failed_flows: number;
}

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const base = flag('base');
if (!base) {
  console.error('usage: compare-bench.ts --base <rev> [--rounds N]');
  process.exit(2);
}
const rounds = Number(flag('rounds') ?? 3);
const root = resolve(import.meta.dirname, '..', '..');
const revision = execFileSync('git', ['rev-parse', '--short', base], { cwd: root, encoding: 'utf8' }).trim();

/** The revision's sources beside this tree's installed dependencies. */
function unpack(rev: string): string {
  const dir = mkdtempSync(join(tmpdir(), `cartwright-${rev}-`));
  execFileSync('sh', ['-c', `git archive ${rev} | tar -x -C "${dir}"`], { cwd: root });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  const workspaces = ['bench', ...['packages', 'examples'].flatMap((group) => listDirs(group))];
  for (const workspace of workspaces) {
    const from = join(root, workspace, 'node_modules');
    if (existsSync(from) && existsSync(join(dir, workspace))) {
      cpSync(from, join(dir, workspace, 'node_modules'), { recursive: true, verbatimSymlinks: true });
    }
  }
  for (const file of [
    'bench/src/compare/probe.ts',
    'bench/src/http/server-process.ts',
    'bench/src/lib/pg-cpu.ts',
    'bench/src/lib/query-counter.ts',
  ]) {
    cpSync(join(root, file), join(dir, file));
  }
  return dir;
}

function listDirs(group: string): string[] {
  const at = join(root, group);
  if (!existsSync(at)) return [];
  return readdirSync(at, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `${group}/${entry.name}`);
}

function probe(tree: string, env: NodeJS.ProcessEnv): Promise<Probe> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(
      process.execPath,
      ['--conditions=@cartwright/source', '--import', 'tsx', 'bench/src/compare/probe.ts'],
      { cwd: tree, stdio: ['ignore', 'pipe', 'inherit'], env },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('PROBE '));
      if (code !== 0 || !line) reject(new Error(`probe in ${tree} exited ${code}:\n${out}`));
      else resolvePromise(JSON.parse(line.slice(6)) as Probe);
    });
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

const fmt = (p: Probe) =>
  `catalog ${p.catalog_rps.toFixed(0)} req/s ${p.catalog_cpu_us.toFixed(0)} µs/req p99 ${p.catalog_p99_ms.toFixed(1)} ms | flow ${p.flow_ops.toFixed(0)} orders/s ${p.flow_cpu_ms.toFixed(2)} ms/order${p.flow_pg_cpu_ms != null ? ` + PostgreSQL ${p.flow_pg_cpu_ms.toFixed(2)} ms/order` : ''}${p.flow_round_trips != null ? `, ${p.flow_round_trips.toFixed(1)} round trips (${p.flow_statements?.toFixed(1)} statements)/order` : ''}${p.failed_flows > 0 ? ` (${p.failed_flows} failed)` : ''}`;

const database = process.env.COMPARE_DATABASE ?? 'memory';
const probeEnv: NodeJS.ProcessEnv = { ...process.env };
let stopPostgres = async () => {};
if (database === 'postgres') {
  const { startPostgres } = await import('@cartwright/storage-conformance/postgres-server');
  const server = await startPostgres();
  probeEnv.COMPARE_PG_URL = server.url;
  stopPostgres = server.stop;
}

const old = unpack(revision);
const results: Record<'old' | 'new', Probe[]> = { old: [], new: [] };
try {
  console.log(
    `comparing ${revision} (${old}) with this tree (${root}), ${rounds} rounds, database: ${database}`,
  );
  for (let round = 1; round <= rounds; round++) {
    const order: Array<['old' | 'new', string]> =
      round % 2 === 1
        ? [
            ['old', old],
            ['new', root],
          ]
        : [
            ['new', root],
            ['old', old],
          ];
    for (const [which, tree] of order) {
      const result = await probe(tree, probeEnv);
      results[which].push(result);
      console.log(
        `round ${round} ${which === 'old' ? revision.padEnd(9) : 'this tree'} ${new Date().toISOString().slice(11, 19)}  ${fmt(result)}`,
      );
    }
  }
  const change = (key: keyof Probe) => {
    const values = (probes: Probe[]) => probes.map((p) => p[key]).filter((v): v is number => v != null);
    const [olds, news] = [values(results.old), values(results.new)];
    if (olds.length === 0 || news.length === 0) return 'not measured';
    const a = median(olds);
    const b = median(news);
    const decimals =
      key.endsWith('_ms') || key.startsWith('flow_round') || key.startsWith('flow_stat') ? 2 : 0;
    return `${a.toFixed(decimals)} → ${b.toFixed(decimals)} (${(((b - a) / a) * 100).toFixed(0)} %)`;
  };
  console.log('\nmedians, old → this tree:');
  console.log(`  catalog req/s             ${change('catalog_rps')}`);
  console.log(`  catalog server CPU µs/req ${change('catalog_cpu_us')}`);
  console.log(`  flow orders/s             ${change('flow_ops')}`);
  console.log(`  flow server CPU ms/order  ${change('flow_cpu_ms')}`);
  if (database === 'postgres') console.log(`  flow PostgreSQL CPU ms/order ${change('flow_pg_cpu_ms')}`);
  console.log(`  flow round trips/order    ${change('flow_round_trips')}`);
  console.log(`  flow statements/order     ${change('flow_statements')}`);
} finally {
  rmSync(old, { recursive: true, force: true });
  await stopPostgres();
}
