import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/fake-stripe/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  external: ['stripe'],
});
