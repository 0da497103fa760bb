/**
 * Command-line flags shared by every bench script:
 * - `--short`: the quick mode for CI (tiny sizes, ~1 s runs) that only proves the scripts work;
 *   its results go to `bench/results/short/` and never to `docs/benchmarks.md`.
 * - `--no-postgres`: skip every Postgres target even when a server could be started.
 */
export interface BenchArgs {
  short: boolean;
  postgres: boolean;
}

export function parseArgs(argv: readonly string[] = process.argv.slice(2)): BenchArgs {
  const known = new Set(['--short', '--no-postgres']);
  for (const arg of argv) {
    if (!known.has(arg)) throw new Error(`unknown flag '${arg}' (known: ${[...known].join(', ')})`);
  }
  return { short: argv.includes('--short'), postgres: !argv.includes('--no-postgres') };
}

/** Picks the full-run or the short-run value of a size or duration. */
export function sized<T>(args: BenchArgs, full: T, short: T): T {
  return args.short ? short : full;
}
