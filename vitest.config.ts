import { defineConfig } from 'vitest/config';

// One root config: every workspace package is a project; packages resolve each other's
// TypeScript sources through the "@cartwright/source" export condition, so tests need no build.
export default defineConfig({
  resolve: { conditions: ['@cartwright/source'] },
  ssr: { resolve: { conditions: ['@cartwright/source'] } },
  test: {
    projects: ['packages/*', 'examples/*', 'tools/*'],
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
});
