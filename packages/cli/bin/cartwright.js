#!/usr/bin/env node
// The `cartwright` command. A committed file rather than dist/bin.js itself: package managers link
// a package's bin when they install it, and in this repository dist/ is built only afterwards (by
// the root postinstall), so a bin pointing into dist/ could not be linked on a fresh install.
import { existsSync } from 'node:fs';

const bin = new URL('../dist/bin.js', import.meta.url);
if (!existsSync(bin)) {
  console.error('cartwright: the built JavaScript (dist/bin.js) is missing: run pnpm build:js');
  process.exit(1);
}
await import(bin.href);
