import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_DIR } from '../lib/results';

/**
 * The server process under test as ONE plain JavaScript file, built with esbuild — as a
 * production build would run it — rather than through tsx: running the TypeScript sources
 * through tsx's loader adds ~30 MiB of RSS for the loader thread plus the compiled sources with
 * their inline source maps (measured: a bare server is 44 MiB under plain node, 74 MiB under
 * tsx; the engine loaded under tsx is ~150 MiB), which would distort the memory and CPU figures.
 *
 * Everything is bundled (workspace packages through their `@cartwright/source` condition, and
 * their npm dependencies) except the two drivers the bench itself depends on, `better-sqlite3`
 * (a native addon) and `pg`, which are imported by their absolute paths in bench/node_modules. esbuild is the one tsx uses
 * (no new dependency). The bundle is rebuilt on every run (about a second) into the system's
 * temporary folder, outside the repository (so neither git nor the linter ever sees it).
 */
interface EsbuildSlice {
  version: string;
  build(options: Record<string, unknown>): Promise<{ errors: unknown[]; warnings: unknown[] }>;
}

// One folder per bench process: two benches running at once never start a half-written bundle.
const OUT_DIR = join(tmpdir(), `cartwright-bench-${process.pid}`);
/** Left out of the bundle and imported by absolute path from bench/node_modules. */
const DRIVERS = ['better-sqlite3', 'pg'];

/** esbuild plugin: the drivers resolve from bench/ and stay external, by absolute path. */
const driversFromBench = {
  name: 'drivers-from-bench',
  setup(build: {
    onResolve(options: { filter: RegExp }, callback: (args: { path: string }) => unknown): void;
  }) {
    const fromBench = createRequire(join(BENCH_DIR, 'package.json'));
    build.onResolve({ filter: new RegExp(`^(${DRIVERS.join('|')})$`) }, (args) => ({
      path: fromBench.resolve(args.path),
      external: true,
    }));
  },
};

function loadEsbuild(): EsbuildSlice {
  const fromTsx = createRequire(createRequire(join(BENCH_DIR, 'package.json')).resolve('tsx/package.json'));
  return fromTsx('esbuild') as EsbuildSlice;
}

const built = new Map<boolean, Promise<string>>();

/**
 * Builds (once per bench process) and returns the path of the bundled server. With `sourcemap`,
 * a second bundle carrying an inline source map, for profiling runs (the profiler maps its
 * positions back to the TypeScript sources; the map itself costs memory, so measured runs use
 * the bundle without it).
 */
export function serverBundle(sourcemap = false): Promise<string> {
  let bundle = built.get(sourcemap);
  if (bundle) return bundle;
  bundle = (async () => {
    const outfile = join(OUT_DIR, sourcemap ? 'server-process.profiled.mjs' : 'server-process.mjs');
    await loadEsbuild().build({
      entryPoints: [join(BENCH_DIR, 'src', 'http', 'server-process.ts')],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      conditions: ['@cartwright/source'],
      plugins: [driversFromBench],
      // pg's optional native binding, never installed here.
      external: ['pg-native'],
      // CommonJS dependencies bundled into ESM still call require() for node builtins.
      banner: {
        js: "import { createRequire as __cwCreateRequire } from 'node:module'; const require = __cwCreateRequire(import.meta.url);",
      },
      logLevel: 'error',
      ...(sourcemap && { sourcemap: 'inline', sourcesContent: false }),
    });
    return outfile;
  })();
  built.set(sourcemap, bundle);
  return bundle;
}
