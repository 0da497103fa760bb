import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/verify-webhook-signature.ts'],
  format: ['esm', 'cjs'],
  dts: false, // declarations: scripts/build-dts.mjs (package.json build)
  clean: true,
  sourcemap: true,
});
