import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { describeTestRun, testRun } from './packages/storage-conformance/src/test-engines.js';

// One root config: every workspace package is a project; packages resolve each other's
// TypeScript sources through the "@cartwright/source" export condition, so tests need no build.
//
// The engines of the run (packages/storage-conformance/src/test-engines.ts): SQLite always,
// PostgreSQL and MariaDB when this machine has them (CI: all three, required). `pnpm test` (the
// fast default) runs the storage suites on every engine and the HTTP API, SDK and CLI suites on
// SQLite; `pnpm test:all` (`--mode full`) and CI run those on every engine too. The decision is
// handed to the projects, global setups and test workers through the environment, and printed.
export default defineConfig(({ mode }) => {
  if (mode === 'full') process.env.CARTWRIGHT_TEST_MATRIX = 'full';
  const run = testRun();
  process.env.CARTWRIGHT_TEST_ENGINES = run.engines.join(',');
  process.env.CARTWRIGHT_TEST_MATRIX = run.full ? 'full' : 'fast';
  console.log(describeTestRun(run));
  return {
    resolve: { conditions: ['@cartwright/source'] },
    ssr: { resolve: { conditions: ['@cartwright/source'] } },
    test: {
      projects: ['packages/*', 'examples/*', 'tools/*'],
      // Locally two test files at a time even on 2 cores (vitest's default is cores - 1, so one):
      // most files wait on database servers and `serve` processes rather than compute. Measured on
      // 2 cores: `pnpm test` 5.4 minutes instead of 9.7. CI keeps vitest's default (the full run
      // is 8.5 minutes with two, 10.5 with one): its timing-sensitive concurrency suites then
      // never share the cores with another file.
      maxWorkers:
        process.env.CI === 'true'
          ? Math.max(1, availableParallelism() - 1)
          : Math.max(2, availableParallelism() - 1),
      // CI reports the line coverage of the domain core over the whole run (unit, storage and HTTP
      // suites all exercise it); locally `pnpm test:coverage` does the same.
      coverage: {
        enabled: process.env.CI === 'true',
        provider: 'v8',
        include: ['packages/core/src/**/*.ts'],
        exclude: ['**/*.test.ts', '**/index.ts'],
        reporter: ['text-summary', 'json-summary'],
      },
    },
  };
});
