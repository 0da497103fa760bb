#!/usr/bin/env node
// Checks every published package as it would be published: packs it with `pnpm pack` (which runs
// the package's `prepack`, scripts/prepack.mjs, and applies `publishConfig`), then, on the
// tarball:
//   - every target of `exports` (every condition, declarations included), `bin`, `main`, `module`
//     and `types` is a file inside the tarball; README.md and LICENSE are there;
//     `repository.directory` is the package's folder;
//   - the published export map is the workspace one without the `@cartwright/source` condition
//     (whose ./src files are not published), and names that condition nowhere;
//   - publint --strict and arethetypeswrong pass. attw's profile is `node16` (node16 CommonJS,
//     node16 ESM, bundler), `esm-only` for packages without a `require` export. Not `strict`:
//     `node10` (`moduleResolution: node`/`node10`, the default of `module: commonjs`) ignores the
//     `exports` map, so it finds no subpath and, through `main`, no declarations — an accepted
//     limitation, documented in docs/embedding.md and the READMEs (use node16, nodenext or
//     bundler).
// With --fresh (what `pnpm check:packages` runs), the packages are packed from a copy of the
// working tree in the state a fresh `pnpm install` leaves (the root postinstall run there: the
// JavaScript, no declarations; checked), so the tarballs prove that `pnpm pack` ships the
// declarations with no `pnpm build` before it. Without it, they are packed in place.
// Usage: node scripts/check-packages.mjs [--fresh] [--out <dir>]   (keeps the tarballs in <dir>)
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { topologicalOrder, workspacePackages } from './prepack.mjs';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const outArg = process.argv.indexOf('--out');
const outDir =
  outArg > 0 ? resolve(process.argv[outArg + 1]) : mkdtempSync(join(tmpdir(), 'cartwright-pack-'));
mkdirSync(outDir, { recursive: true });
const fresh = process.argv.includes('--fresh') ? freshCopy() : undefined;
process.on('exit', () => {
  if (outArg < 0) rmSync(outDir, { recursive: true, force: true });
  if (fresh) rmSync(fresh, { recursive: true, force: true });
});
const packRoot = fresh ?? root;

const SOURCE_CONDITION = '@cartwright/source';
const problems = [];
const packed = [];

// Dependencies first: each prepack then finds the declarations of the packages it imports current.
const byName = workspacePackages(packRoot);
for (const { dir, pkg } of topologicalOrder(byName).map((name) => byName.get(name))) {
  if (pkg.private) continue;
  const fail = (message) => problems.push(`${pkg.name}: ${message}`);
  const problemsBefore = problems.length;

  execFileSync('pnpm', ['pack', '--pack-destination', outDir], { cwd: dir, stdio: 'ignore' });
  const tarball = join(outDir, `${pkg.name.replace(/^@/, '').replace('/', '-')}-${pkg.version}.tgz`);
  const files = new Set(
    execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map((f) => f.replace(/^package\//, '')),
  );
  const published = JSON.parse(
    execFileSync('tar', ['xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }),
  );
  const size = execFileSync('du', ['-k', tarball], { encoding: 'utf8' }).split('\t')[0];
  const declarations = [...files].filter((f) => /\.d\.c?ts$/.test(f)).length;
  if (declarations === 0) fail('no declarations (.d.ts) in the tarball');
  packed.push({ name: pkg.name, tarball, files: files.size, kib: Number(size) });

  // README, LICENSE, repository
  for (const file of ['README.md', 'LICENSE', 'package.json'])
    if (!files.has(file)) fail(`${file} is not in the tarball`);
  const directory = relative(packRoot, dir);
  if (published.repository?.directory !== directory) fail(`repository.directory should be ${directory}`);
  if (!published.repository?.url) fail('no repository.url');

  // The published export map: the workspace one minus the source condition.
  if (JSON.stringify([published.exports, published.imports]).includes(SOURCE_CONDITION)) {
    fail(`the published export map names ${SOURCE_CONDITION}`);
  }
  const expected = stripCondition(pkg.exports);
  if (JSON.stringify(published.exports) !== JSON.stringify(expected)) {
    fail(
      `published exports differ from the workspace exports without ${SOURCE_CONDITION}: update publishConfig.exports\n  published: ${JSON.stringify(published.exports)}\n  expected:  ${JSON.stringify(expected)}`,
    );
  }

  // Every file the package.json points to is inside the tarball.
  const targets = [
    ...collectTargets(published.exports),
    ...Object.values(
      typeof published.bin === 'string' ? { [pkg.name]: published.bin } : (published.bin ?? {}),
    ),
    ...['main', 'module', 'types'].map((field) => published[field]).filter(Boolean),
  ];
  for (const target of new Set(targets)) {
    if (target.includes('*')) fail(`${target}: pattern exports are not checked — list files instead`);
    else if (!files.has(target.replace(/^\.\//, '')))
      fail(`${target} is named by package.json but not in the tarball`);
  }

  // publint and arethetypeswrong on the tarball itself.
  const profile = pkg.exports?.['.']?.require ? 'node16' : 'esm-only';
  run(pkg.name, 'publint', ['run', tarball, '--strict'], dir);
  run(pkg.name, 'attw', [tarball, '--profile', profile, '--format', 'ascii'], dir);
  const verdict =
    problems.length === problemsBefore
      ? `${new Set(targets).size} targets present (${declarations} declaration files), publint + attw (${profile}) clean`
      : `${problems.length - problemsBefore} problem(s)`;
  console.log(`== ${pkg.name}: ${files.size} files, ${size} KiB packed, ${verdict}`);
}

if (problems.length > 0) {
  console.error(`\npackages: ${problems.length} problem(s)\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
console.log(
  `packages: ${packed.length} tarballs complete (exports, declarations, bin, README, LICENSE), publint and attw clean${fresh ? ', packed from a fresh install (JavaScript only, declarations built by prepack)' : ''} — in ${outDir}`,
);

/**
 * A copy of the working tree (tracked files and new ones git does not ignore) in the state
 * `pnpm install` leaves it: the root postinstall run (`build:js`), no declarations anywhere. The
 * installed dependencies are the repository's: node_modules is a link to its node_modules, and
 * each package's node_modules (links to the store and to the workspace packages, relative) is
 * copied.
 */
function freshCopy() {
  const started = performance.now();
  const copy = mkdtempSync(join(tmpdir(), 'cartwright-fresh-'));
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  let copied = 0;
  for (const file of listed.split('\0')) {
    if (!file || !existsSync(join(root, file))) continue; // deleted in the working tree
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(join(root, file), join(copy, file), { verbatimSymlinks: true });
    copied++;
  }
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
  for (const name of readdirSync(join(root, 'packages'))) {
    const modules = join(root, 'packages', name, 'node_modules');
    if (!existsSync(modules) || !existsSync(join(copy, 'packages', name))) continue;
    cpSync(modules, join(copy, 'packages', name, 'node_modules'), {
      recursive: true,
      verbatimSymlinks: true,
      filter: (source) => !source.startsWith(join(modules, '.cache')),
    });
  }
  execFileSync('pnpm', ['run', '--silent', 'postinstall'], { cwd: copy, stdio: 'inherit' });
  const declarations = readdirSync(join(copy, 'packages')).flatMap((name) => {
    const dist = join(copy, 'packages', name, 'dist');
    return existsSync(dist) ? readdirSync(dist, { recursive: true }).filter((f) => /\.d\.c?ts$/.test(f)) : [];
  });
  if (declarations.length > 0) {
    console.error(
      `check-packages: the fresh copy has declarations before packing: ${declarations.slice(0, 5).join(', ')}`,
    );
    process.exit(1);
  }
  console.log(
    `check-packages: fresh copy of the working tree (${copied} files) after the root postinstall (build:js): no declarations — in ${((performance.now() - started) / 1000).toFixed(1)}s`,
  );
  return copy;
}

/**
 * An export map without the source condition. A subpath left with nothing (one that exists only
 * under the condition, such as core's `./internal`: the monorepo's own, neither built nor
 * published) is dropped.
 */
function stripCondition(value) {
  if (Array.isArray(value)) return value.map(stripCondition);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== SOURCE_CONDITION)
      .map(([key, v]) => [key, stripCondition(v)])
      .filter(([, v]) => v === null || typeof v !== 'object' || Object.keys(v).length > 0),
  );
}

function collectTargets(value) {
  if (typeof value === 'string') return value.startsWith('./') ? [value] : [];
  if (value === null || typeof value !== 'object') return [];
  return Object.values(value).flatMap(collectTargets);
}

function run(name, bin, args, cwd) {
  try {
    execFileSync('pnpm', ['exec', bin, ...args], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    process.stdout.write(error.stdout ?? '');
    process.stderr.write(error.stderr ?? '');
    problems.push(`${name}: ${bin} failed`);
  }
}
