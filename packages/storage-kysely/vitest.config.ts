import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['@cartwright/source'] },
  ssr: { resolve: { conditions: ['@cartwright/source'] } },
  test: {
    name: 'storage-kysely',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // One throwaway PostgreSQL per run (test files create their own databases in it).
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
