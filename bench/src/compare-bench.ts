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
 * (default 10,000), `COMPARE_DATABASE=file` (a SQLite file in WAL mode instead of memory).
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
  for (const file of ['bench/src/compare/probe.ts', 'bench/src/http/server-process.ts']) {
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

function probe(tree: string): Promise<Probe> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(
      process.execPath,
      ['--conditions=@cartwright/source', '--import', 'tsx', 'bench/src/compare/probe.ts'],
      { cwd: tree, stdio: ['ignore', 'pipe', 'inherit'] },
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
  `catalog ${p.catalog_rps.toFixed(0)} req/s ${p.catalog_cpu_us.toFixed(0)} µs/req p99 ${p.catalog_p99_ms.toFixed(1)} ms | flow ${p.flow_ops.toFixed(0)} orders/s ${p.flow_cpu_ms.toFixed(2)} ms/order${p.failed_flows > 0 ? ` (${p.failed_flows} failed)` : ''}`;

const old = unpack(revision);
const results: Record<'old' | 'new', Probe[]> = { old: [], new: [] };
try {
  console.log(`comparing ${revision} (${old}) with this tree (${root}), ${rounds} rounds`);
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
      const result = await probe(tree);
      results[which].push(result);
      console.log(
        `round ${round} ${which === 'old' ? revision.padEnd(9) : 'this tree'} ${new Date().toISOString().slice(11, 19)}  ${fmt(result)}`,
      );
    }
  }
  const change = (key: keyof Probe) => {
    const a = median(results.old.map((p) => p[key]));
    const b = median(results.new.map((p) => p[key]));
    return `${a.toFixed(key.endsWith('_ms') ? 2 : 0)} → ${b.toFixed(key.endsWith('_ms') ? 2 : 0)} (${(((b - a) / a) * 100).toFixed(0)} %)`;
  };
  console.log('\nmedians, old → this tree:');
  console.log(`  catalog req/s             ${change('catalog_rps')}`);
  console.log(`  catalog server CPU µs/req ${change('catalog_cpu_us')}`);
  console.log(`  flow orders/s             ${change('flow_ops')}`);
  console.log(`  flow server CPU ms/order  ${change('flow_cpu_ms')}`);
} finally {
  rmSync(old, { recursive: true, force: true });
}
