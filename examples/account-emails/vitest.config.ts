import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['@cartwright/source'] },
  ssr: { resolve: { conditions: ['@cartwright/source'] } },
  test: { name: 'example-account-emails', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
