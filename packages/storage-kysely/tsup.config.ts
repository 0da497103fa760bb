import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/sqlite.ts', 'src/postgres.ts'],
  format: ['esm', 'cjs'],
  dts: false, // declarations: scripts/build-dts.mjs (package.json build)
  clean: true,
  sourcemap: true,
  external: ['better-sqlite3', 'pg'],
  // The drivers are loaded with createRequire(import.meta.url) (src/dialects/load-driver.ts):
  // the CommonJS build needs import.meta.url shimmed.
  shims: true,
});
