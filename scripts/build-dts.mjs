#!/usr/bin/env node
// Declaration build of one package (run from the package directory, after tsup): one TypeScript
// program over the exported entry points emits their declarations into node_modules/.cache/cartwright-dts,
// then rollup-plugin-dts bundles them, one .d.ts (and .d.cts when the export has `require`) per
// export of package.json, into dist/ where the export map says.
//
// Why not tsup's `dts: true`: it type-checked each package through rollup-plugin-dts on the .ts
// sources, and, through the `@cartwright/source` condition, the sources of every workspace
// package it imports as well (storage-kysely re-checked all of core). Here workspace imports
// resolve to their built declarations (the condition is dropped), so `pnpm build` must build
// dependencies first — `pnpm -r` does, and `pnpm --filter <pkg>... build` does for one package.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const requireFromRoot = createRequire(join(root, 'package.json'));
const ts = requireFromRoot('typescript');
const { rollup } = requireFromRoot('rollup');
const { dts } = requireFromRoot('rollup-plugin-dts');

const pkgDir = process.cwd();
const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
const srcDir = join(pkgDir, 'src');
const cacheDir = join(pkgDir, 'node_modules', '.cache', 'cartwright-dts');
const started = performance.now();

// --- the exports whose declarations to build ------------------------------------------------
/** @type {{ name: string, source: string, esm?: string, cjs?: string }[]} */
const entries = [];
for (const [subpath, target] of Object.entries(pkg.exports ?? {})) {
  if (typeof target !== 'object' || !target['@cartwright/source']) continue;
  const source = target['@cartwright/source'];
  const esm = target.import?.types;
  const cjs = target.require?.types;
  if (!esm && !cjs) continue;
  if (!source.startsWith('./src/') || !source.endsWith('.ts'))
    throw new Error(`${subpath}: source ${source} is not under ./src`);
  const name = source.slice('./src/'.length, -'.ts'.length);
  for (const [types, ext] of [
    [esm, '.d.ts'],
    [cjs, '.d.cts'],
  ]) {
    if (types && types !== `./dist/${name}${ext}`) {
      throw new Error(
        `${subpath}: types ${types} should be ./dist/${name}${ext} (the bundle keeps the src layout)`,
      );
    }
  }
  entries.push({ name, source, esm, cjs });
}
if (entries.length === 0) throw new Error(`${pkg.name}: no export with types to build`);

// --- 1. one TypeScript program: declarations of src/ ----------------------------------------
const configPath = join(pkgDir, 'tsconfig.json');
const config = ts.readConfigFile(configPath, ts.sys.readFile);
if (config.error) fail([config.error]);
const parsed = ts.parseJsonConfigFileContent(
  {
    ...config.config,
    include: ['src'],
    exclude: ['src/**/*.test.ts', 'src/**/*.test-d.ts'],
  },
  ts.sys,
  pkgDir,
  {
    noEmit: false,
    declaration: true,
    emitDeclarationOnly: true,
    declarationMap: false,
    sourceMap: false,
    rootDir: srcDir,
    outDir: cacheDir,
    // Workspace packages resolve to their built declarations, not their sources.
    customConditions: [],
    incremental: false,
    composite: false,
  },
  configPath,
);
if (parsed.errors.length > 0) fail(parsed.errors);
rmSync(cacheDir, { recursive: true, force: true });
// Roots: the exported entry points (what they import is followed), as tsup did.
const rootNames = [
  ...entries.map((e) => join(pkgDir, e.source)),
  ...parsed.fileNames.filter((f) => f.endsWith('.d.ts')),
];
const program = ts.createProgram({ rootNames, options: parsed.options });
const emitted = program.emit(undefined, undefined, undefined, true);
const diagnostics = [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics].filter(
  (d) => d.category === ts.DiagnosticCategory.Error,
);
if (diagnostics.length > 0) fail(diagnostics);
const emittedAt = performance.now();

// --- 2. bundle one declaration file per export ------------------------------------------------
const bundle = await rollup({
  input: Object.fromEntries(entries.map((e) => [e.name, join(cacheDir, `${e.name}.d.ts`)])),
  plugins: [resolveDeclarations(), dts({ compilerOptions: { ...parsed.options, customConditions: [] } })],
  onwarn(warning, warn) {
    if (warning.code === 'EMPTY_BUNDLE') return;
    // Shared chunks carry internal types (e.g. StatementExecutor) that no entry re-exports;
    // tsup's bundles were the same. Harmless unless a consumer's own declarations name them.
    if (warning.message.includes('private shared type exports')) return;
    warn(warning);
  },
});
const outputs = [
  { ext: '.d.ts', wanted: entries.some((e) => e.esm) },
  { ext: '.d.cts', wanted: entries.some((e) => e.cjs) },
];
for (const { ext, wanted } of outputs) {
  if (!wanted) continue;
  mkdirSync(join(pkgDir, 'dist'), { recursive: true });
  await bundle.write({
    dir: join(pkgDir, 'dist'),
    format: 'es',
    entryFileNames: `[name]${ext}`,
    chunkFileNames: (chunk) => `${chunk.name.replace(/\.d$/, '')}-[hash]${ext}`,
    // Shared chunks export their declarations by their own names (`export { OrderSchema }`), not
    // as `a7`: the entries re-export them without an alias each, which is shorter (core: ~7 KB)
    // and reads better in an editor.
    minifyInternalExports: false,
  });
}
await bundle.close();
checkSelfContained();

const ms = (t) => `${Math.round(t)}ms`;
console.log(
  `${pkg.name}: declarations of ${entries.length} export(s) in ${ms(performance.now() - started)} (emit ${ms(emittedAt - started)}, bundle ${ms(performance.now() - emittedAt)})`,
);

/**
 * The published declarations must stand on their own: every relative specifier in a bundled file
 * (an import, an export, or a `declare module '…'` augmentation) must name another file of the
 * bundle. A relative module augmentation in src (`declare module '../engine-port'`) is copied into
 * the bundle as it is, where its target does not exist: consumers' TypeScript reports it without
 * `skipLibCheck` and ignores the augmentation with it (issue 22: `ctx.engine` lost its type).
 */
function checkSelfContained() {
  const dist = join(pkgDir, 'dist');
  const problems = [];
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.d\.c?ts$/.test(entry.name)) files.push(path);
    }
  };
  walk(dist);
  const specifier = /(?:\bfrom\s+|\bimport\s+|\bdeclare\s+module\s+)['"](\.{1,2}\/[^'"]*)['"]/g;
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(specifier)) {
      const [statement, spec] = match;
      if (statement.startsWith('declare')) {
        problems.push(
          `${relative(pkgDir, file)}: a relative module augmentation (${statement}) cannot be resolved once bundled; augment a package name, or type the value without augmentation`,
        );
        continue;
      }
      const base = resolve(dirname(file), spec.replace(/\.(c?js|d\.c?ts)$/, ''));
      const ext = file.endsWith('.d.cts') ? '.d.cts' : '.d.ts';
      if (!existsSync(`${base}${ext}`) && !existsSync(join(base, `index${ext}`))) {
        problems.push(`${relative(pkgDir, file)}: '${spec}' names no file of the bundle`);
      }
    }
  }
  if (problems.length > 0) {
    console.error(
      `${pkg.name}: the bundled declarations are not self-contained:\n- ${problems.join('\n- ')}`,
    );
    process.exit(1);
  }
}

/** Relative imports in the emitted declarations are extensionless (`./dialects/sqlite/x`). */
function resolveDeclarations() {
  return {
    name: 'resolve-declarations',
    resolveId(id, importer) {
      if (!importer || !id.startsWith('.')) return null;
      const base = resolve(dirname(importer), id.replace(/\.(js|ts)$/, ''));
      for (const candidate of [`${base}.d.ts`, join(base, 'index.d.ts')]) {
        if (existsSync(candidate)) return candidate;
      }
      throw new Error(`cannot resolve ${id} from ${importer}`);
    },
  };
}

function fail(list) {
  const host = {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => pkgDir,
    getNewLine: () => '\n',
  };
  console.error(ts.formatDiagnosticsWithColorAndContext(list, host));
  console.error(
    `${pkg.name}: declaration build failed (${list.length} error(s)) in ${relative(root, pkgDir)}`,
  );
  process.exit(1);
}
