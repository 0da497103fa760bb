import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'docs-check', include: ['*.test.ts', 'src/**/*.test.ts'] },
});
