import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/http-flow.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  external: ['vitest'],
  sourcemap: true,
});
