import { configDefaults, defineProject } from 'vitest/config';
import { testRun } from '../storage-conformance/src/test-engines.js';

// Files about one engine only are left out when that engine is not an HTTP target of the run
// (test-engines.ts `matrix`): no skipped tests.
const { matrix } = testRun();

export default defineProject({
  resolve: { conditions: ['@cartwright/source'] },
  ssr: { resolve: { conditions: ['@cartwright/source'] } },
  test: {
    name: 'http',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: [
      ...configDefaults.exclude,
      ...(matrix.includes('postgres') ? [] : ['test/api/round-trips.test.ts']),
    ],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
