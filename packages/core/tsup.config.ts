import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: false, // declarations: scripts/build-dts.mjs (package.json build)
  clean: true,
  sourcemap: true,
});
