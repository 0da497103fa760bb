import { configDefaults, defineProject } from 'vitest/config';
import { testRun } from '../storage-conformance/src/test-engines.js';

// The storage suites run on every engine of the run (test-engines.ts `engines`); the files about
// one engine only are left out when it is not one of them (no skipped tests).
const { engines } = testRun();

export default defineProject({
  resolve: { conditions: ['@cartwright/source'] },
  ssr: { resolve: { conditions: ['@cartwright/source'] } },
  test: {
    name: 'storage-kysely',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: [
      ...configDefaults.exclude,
      ...(engines.includes('postgres') ? [] : ['test/postgres.test.ts', 'test/embedded-postgres.test.ts']),
      ...(engines.includes('mariadb') ? [] : ['test/mariadb.test.ts']),
    ],
    // One throwaway PostgreSQL per run (test files create their own databases in it).
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
