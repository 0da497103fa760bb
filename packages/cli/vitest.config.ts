import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['@cartwright/source'] },
  ssr: { resolve: { conditions: ['@cartwright/source'] } },
  test: {
    name: 'cli',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
