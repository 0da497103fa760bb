import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test } from 'vitest';
import { SERVER_NODE_FLAGS } from '../src/node-flags';

const packageJson = JSON.parse(readFileSync(resolve(import.meta.dirname, '../package.json'), 'utf8')) as {
  scripts: Record<string, string>;
};

test('`pnpm start` runs node with every flag of SERVER_NODE_FLAGS (the benchmarks run the server with them too)', () => {
  const words = (packageJson.scripts.start ?? '').split(/\s+/);
  expect(words[0]).toBe('node');
  for (const flag of SERVER_NODE_FLAGS) expect(words).toContain(flag);
});

test('SERVER_NODE_FLAGS are V8 options node accepts (no typo reaches a deployment)', () => {
  expect(SERVER_NODE_FLAGS.length).toBeGreaterThan(0);
  for (const flag of SERVER_NODE_FLAGS)
    expect(process.allowedNodeEnvironmentFlags.has(flag.split('=')[0] as string)).toBe(true);
});
