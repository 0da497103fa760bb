import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineResults } from '../engine-bench';
import type { FlashSaleResults } from '../flash-sale-bench';
import type { HttpResults } from '../http-bench';
import type { BenchArgs } from '../lib/args';
import { machineInfo } from '../lib/machine';
import { loadResults, REPO_DIR, resultsDir } from '../lib/results';
import type { PgSettingsResults } from '../pg-settings-bench';
import type { ProfileEntry } from '../profile-bench';
import type { ScaleResults } from '../scale-bench';
import { buildReport, type ReportInput } from './build-report';
import { lineChart, type Series } from './svg-chart';

const CHART = 'throughput-vs-concurrency.svg';

/** The chart: requests/s of the ceiling and of each target's storefront flow, by concurrency. */
export function throughputChart(http: HttpResults): string {
  const series: Series[] = [
    {
      name: 'bare node:http (ceiling)',
      points: http.ceiling.map((c) => [c.connections, c.requests_per_second]),
      dashed: true,
    },
    ...http.targets.map((t) => ({
      name: `flow, ${t.label}`,
      points: t.flow.map((f): [number, number] => [f.connections, f.requests_per_second]),
    })),
    ...http.targets.map((t) => ({
      name: `catalog list, ${t.label}`,
      points: [[t.catalog.connections, t.catalog.requests_per_second]] as Array<[number, number]>,
    })),
  ];
  const ticks = [...new Set(series.flatMap((s) => s.points.map(([x]) => x)))].sort((a, b) => a - b);
  return lineChart({
    title: 'HTTP throughput versus concurrency (requests/s, log scales)',
    xLabel: 'concurrent connections',
    yLabel: 'requests per second',
    xTicks: ticks,
    series,
  });
}

/**
 * Writes the report from the saved results: `docs/benchmarks.md` and the chart in
 * `bench/results/` for a full run; both in `bench/results/short/` for a short run.
 */
export function writeReport(args: Pick<BenchArgs, 'short'>): string {
  const dir = resultsDir(args);
  const engine = loadResults<EngineResults>(args, 'engine');
  const http = loadResults<HttpResults>(args, 'http');
  const scale = loadResults<ScaleResults>(args, 'scale');
  const pgSettings = loadResults<PgSettingsResults>(args, 'pg-settings');
  const profile = loadResults<{ entries: ProfileEntry[] }>(args, 'profile');
  const flash = loadResults<FlashSaleResults>(args, 'flash-sale');
  const run = loadResults<{ durations: ReportInput['durations'] }>(args, 'run');
  if (http) writeFileSync(join(dir, CHART), throughputChart(http));
  const target = args.short ? join(dir, 'benchmarks.md') : join(REPO_DIR, 'docs', 'benchmarks.md');
  const chartPath = args.short ? CHART : `../bench/results/${CHART}`;
  const machine = http?.machine ?? engine?.machine ?? scale?.machine ?? machineInfo();
  writeFileSync(
    target,
    buildReport({
      short: args.short,
      machine,
      engine,
      http,
      scale,
      pgSettings,
      profile,
      flash,
      durations: run?.durations ?? [],
      chartPath,
    }),
  );
  // Formatted as `pnpm lint` expects (Biome formats Markdown too); the report is committed.
  if (!args.short)
    spawnSync('pnpm', ['exec', 'biome', 'format', '--write', target], { cwd: REPO_DIR, stdio: 'ignore' });
  return target;
}
