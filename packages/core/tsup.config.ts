import { defineConfig } from 'tsup';

export default defineConfig({
  // One entry per export of package.json (the dist layout follows src).
  entry: {
    index: 'src/index.ts',
    providers: 'src/providers.ts',
    storage: 'src/storage.ts',
    'schemas/index': 'src/schemas/index.ts',
    internal: 'src/internal.ts',
  },
  format: ['esm', 'cjs'],
  // Shared chunks in both formats: one copy of each module (CommerceError, caches) whichever
  // subpath an application imports first.
  splitting: true,
  dts: false, // declarations: scripts/build-dts.mjs (package.json build)
  clean: true,
  sourcemap: true,
});
