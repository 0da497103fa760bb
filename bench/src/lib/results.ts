import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchArgs } from './args';

/** `bench/` (this package's folder). */
export const BENCH_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** The repository root. */
export const REPO_DIR = resolve(BENCH_DIR, '..');

/** Where a run's JSON results go: `bench/results/` (full) or `bench/results/short/` (short). */
export function resultsDir(args: Pick<BenchArgs, 'short'>): string {
  const dir = args.short ? join(BENCH_DIR, 'results', 'short') : join(BENCH_DIR, 'results');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Writes one script's results as `<name>.json` and says where. */
export function saveResults(args: Pick<BenchArgs, 'short'>, name: string, data: unknown): string {
  const file = join(resultsDir(args), `${name}.json`);
  writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
  formatWithBiome([file]);
  console.log(`\nresults written to ${file}`);
  return file;
}

/** Reads one script's results, or null when that script has not run (or failed). */
export function loadResults<T>(args: Pick<BenchArgs, 'short'>, name: string): T | null {
  try {
    return JSON.parse(readFileSync(join(resultsDir(args), `${name}.json`), 'utf8')) as T;
  } catch {
    return null;
  }
}

/**
 * Formats written results with the repository's Biome (results are committed, and `pnpm lint`
 * checks JSON formatting); a no-op when Biome is not installed.
 */
export function formatWithBiome(paths: string[]): void {
  const biome = join(REPO_DIR, 'node_modules', '.bin', 'biome');
  if (!existsSync(biome)) return;
  spawnSync(biome, ['format', '--write', ...paths], { cwd: REPO_DIR, stdio: 'ignore' });
}
