import { defineConfig } from 'tsup';

export default defineConfig({
  // One entry per published export of package.json (the dist layout follows src). `./internal`
  // is not one: it exists only under the `@cartwright/source` condition, for the monorepo's tests
  // and benchmarks, and is neither built nor published.
  entry: {
    index: 'src/index.ts',
    providers: 'src/providers.ts',
    storage: 'src/storage.ts',
    'schemas/index': 'src/schemas/index.ts',
    'operations/index': 'src/operations/index.ts',
    wire: 'src/wire.ts',
    'storage-rules': 'src/storage-rules.ts',
  },
  format: ['esm', 'cjs'],
  // Shared chunks in both formats: one copy of each module (CommerceError, caches) whichever
  // subpath an application imports first.
  splitting: true,
  dts: false, // declarations: scripts/build-dts.mjs (package.json build)
  clean: true,
  sourcemap: true,
});
