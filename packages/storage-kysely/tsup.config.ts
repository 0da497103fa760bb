import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/sqlite.ts', 'src/postgres.ts', 'src/mysql.ts'],
  format: ['esm', 'cjs'],
  dts: false, // declarations: scripts/build-dts.mjs (package.json build)
  clean: true,
  sourcemap: true,
  external: ['better-sqlite3', 'pg', 'mysql2'],
  // The drivers are loaded on first use with a literal `require('<driver>')`
  // (src/dialects/load-driver.ts). esbuild turns it into its `__require` shim in the ESM build,
  // which needs a `require` in scope: the banner makes one that resolves from dist/. The CommonJS
  // build has its own, and needs import.meta.url (load-driver's createRequire) shimmed.
  shims: true,
  banner: ({ format }) =>
    format === 'esm'
      ? {
          js: "import { createRequire as __cartwrightCreateRequire } from 'node:module'; const require = __cartwrightCreateRequire(import.meta.url);",
        }
      : {},
});
