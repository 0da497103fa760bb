/**
 * Runs every benchmark script in its own process, one after the other, then writes the report
 * (docs/benchmarks.md and the chart; with --short: bench/results/short/). One throwaway Postgres
 * cluster serves all scripts (its URL is handed over in CARTWRIGHT_TEST_PG_URL); without one,
 * the Postgres parts are skipped with a message.
 *
 *   pnpm --filter @cartwright/bench bench          (full, ~25 min)
 *   pnpm --filter @cartwright/bench bench:short    (CI, < 1 min)
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from './lib/args';
import { BENCH_DIR, saveResults } from './lib/results';
import { writeReport } from './report/write-report';

const args = parseArgs();
const SCRIPTS = [
  'engine-bench.ts',
  'http-bench.ts',
  'scale-bench.ts',
  'pg-settings-bench.ts',
  'profile-bench.ts',
  'flash-sale-bench.ts',
];

function runScript(script: string, flags: string[], env: NodeJS.ProcessEnv): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--conditions=@cartwright/source', '--import', 'tsx', join(BENCH_DIR, 'src', script), ...flags],
      { cwd: BENCH_DIR, stdio: 'inherit', env },
    );
    child.once('exit', (code) => resolve(code === 0));
  });
}

const env = { ...process.env };
const flags = [...(args.short ? ['--short'] : [])];
let stopPostgres = async () => {};
if (args.postgres && !env.CARTWRIGHT_TEST_PG_URL) {
  try {
    const { startPostgres } = await import('@cartwright/storage-conformance/postgres-server');
    const server = await startPostgres();
    env.CARTWRIGHT_TEST_PG_URL = server.url;
    stopPostgres = server.stop;
  } catch (error) {
    console.log(`postgres: SKIPPED — could not start a server: ${(error as Error).message}`);
    flags.push('--no-postgres');
  }
} else if (!args.postgres) {
  flags.push('--no-postgres');
}

const durations: Array<{ script: string; seconds: number; ok: boolean }> = [];
try {
  for (const script of SCRIPTS) {
    console.log(`\n######## ${script} ${flags.join(' ')}`);
    const started = performance.now();
    const ok = await runScript(script, flags, env);
    durations.push({ script, seconds: (performance.now() - started) / 1000, ok });
    if (!ok) console.log(`######## ${script} FAILED`);
  }
} finally {
  await stopPostgres();
}
saveResults(args, 'run', { durations });
console.log(`\nreport written to ${writeReport(args)}`);
for (const d of durations)
  console.log(`  ${d.script.padEnd(18)} ${d.ok ? `${d.seconds.toFixed(0)} s` : 'FAILED'}`);
if (durations.some((d) => !d.ok)) process.exitCode = 1;
