import { defineConfig } from 'tsup';

export default defineConfig({
  entry: [
    'src/index.ts',
    'src/adapters/node.ts',
    'src/adapters/express.ts',
    'src/adapters/fastify.ts',
    'src/adapters/hono.ts',
  ],
  format: ['esm', 'cjs'],
  dts: false, // declarations: scripts/build-dts.mjs (package.json build)
  clean: true,
  sourcemap: true,
  external: ['express', 'fastify', 'hono'],
});
