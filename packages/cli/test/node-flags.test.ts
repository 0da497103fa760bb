import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test } from 'vitest';
import { SERVER_NODE_FLAGS } from '../src/node-flags';

type PackageJson = { scripts: Record<string, string> };
const read = (path: string) =>
  JSON.parse(readFileSync(resolve(import.meta.dirname, path), 'utf8')) as PackageJson;
const cli = read('../package.json');
const root = read('../../../package.json');

test.each([
  ['the root', root, 'packages/cli/dist/bin.js'],
  ['@cartwright/cli', cli, 'dist/bin.js'],
])(
  '`pnpm start` of %s runs the built JavaScript with node and every flag of SERVER_NODE_FLAGS (the benchmarks run the server with them too)',
  (_name, pkg, bin) => {
    const words = (pkg.scripts.start ?? '').split(/\s+/);
    expect(words[0]).toBe('node');
    for (const flag of SERVER_NODE_FLAGS) expect(words).toContain(flag);
    // Plain JavaScript, no TypeScript loader (5.9 s to listen through tsx).
    expect(words).toContain(bin);
    expect(words).not.toContain('tsx');
    expect(words.at(-1)).toBe('serve');
  },
);

test('the root builds that JavaScript on install (JS only), and `pnpm dev` runs the sources', () => {
  expect(root.scripts.postinstall).toMatch(/build:js/);
  expect(root.scripts.cartwright).toBe('node packages/cli/dist/bin.js');
  expect(root.scripts.dev).toContain('packages/cli/src/bin.ts serve');
});

test('SERVER_NODE_FLAGS are V8 options node accepts (no typo reaches a deployment)', () => {
  expect(SERVER_NODE_FLAGS.length).toBeGreaterThan(0);
  for (const flag of SERVER_NODE_FLAGS)
    expect(process.allowedNodeEnvironmentFlags.has(flag.split('=')[0] as string)).toBe(true);
});
