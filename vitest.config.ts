import { defineConfig } from 'vitest/config';

// One root config: every workspace package is a project; packages resolve each other's
// TypeScript sources through the "@cartwright/source" export condition, so tests need no build.
export default defineConfig({
  resolve: { conditions: ['@cartwright/source'] },
  ssr: { resolve: { conditions: ['@cartwright/source'] } },
  test: {
    projects: ['packages/*', 'examples/*'],
    coverage: {
      provider: 'v8',
      include: ['packages/*/src/**/*.ts'],
      exclude: ['**/*.test.ts', '**/index.ts'],
      reporter: ['text-summary', 'json-summary'],
    },
  },
});
