import { defineConfig } from 'tsup';

// ESM only: vitest, which the suite is written in, cannot be require()d (its CommonJS entry
// throws), so a CommonJS build could never run. worker.ts is an entry of its own (not exported):
// nodeWorkerProcesses spawns `node dist/worker.js`, found next to the module that spawns it, so
// a consumer needs no TypeScript loader; it must not pull in vitest (it runs outside the runner).
export default defineConfig({
  entry: [
    'src/index.ts',
    'src/postgres-server.ts',
    'src/mariadb-server.ts',
    'src/multi-process.ts',
    'src/worker.ts',
  ],
  format: ['esm'],
  target: 'node20',
  dts: false, // declarations: scripts/build-dts.mjs (package.json build)
  clean: true,
  sourcemap: true,
  // Peers stay imports (tsup leaves dependencies and peerDependencies out of the bundle).
  external: ['vitest', 'mysql2'],
});
