import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['@cartwright/source'] },
  ssr: { resolve: { conditions: ['@cartwright/source'] } },
  test: { name: 'example-webhook-receiver', include: ['src/**/*.test.ts'] },
});
