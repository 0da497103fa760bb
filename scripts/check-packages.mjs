#!/usr/bin/env node
// Checks every published package as it would be published (run after `pnpm build`): packs it
// with `pnpm pack` (which applies `publishConfig`), then, on the tarball:
//   - every target of `exports` (every condition), `bin`, `main`, `module` and `types` is a file
//     inside the tarball; README.md and LICENSE are there; `repository.directory` is the
//     package's folder;
//   - the published export map is the workspace one without the `@cartwright/source` condition
//     (whose ./src files are not published), and names that condition nowhere;
//   - publint --strict and arethetypeswrong (node16 profile, esm-only for packages without a
//     `require` export) pass.
// Usage: node scripts/check-packages.mjs [--out <dir>]   (keeps the tarballs in <dir>)
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const outArg = process.argv.indexOf('--out');
const outDir =
  outArg > 0 ? resolve(process.argv[outArg + 1]) : mkdtempSync(join(tmpdir(), 'cartwright-pack-'));
mkdirSync(outDir, { recursive: true });
process.on('exit', () => {
  if (outArg < 0) rmSync(outDir, { recursive: true, force: true });
});

const SOURCE_CONDITION = '@cartwright/source';
const problems = [];
const packed = [];

for (const name of readdirSync(join(root, 'packages')).sort()) {
  const dir = join(root, 'packages', name);
  let pkg;
  try {
    pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  } catch {
    continue;
  }
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
  packed.push({ name: pkg.name, tarball, files: files.size, kib: Number(size) });

  // README, LICENSE, repository
  for (const file of ['README.md', 'LICENSE', 'package.json'])
    if (!files.has(file)) fail(`${file} is not in the tarball`);
  const directory = relative(root, dir);
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
      ? `${new Set(targets).size} targets present, publint + attw (${profile}) clean`
      : `${problems.length - problemsBefore} problem(s)`;
  console.log(`== ${pkg.name}: ${files.size} files, ${size} KiB packed, ${verdict}`);
}

if (problems.length > 0) {
  console.error(`\npackages: ${problems.length} problem(s)\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
console.log(
  `packages: ${packed.length} tarballs complete (exports, bin, README, LICENSE), publint and attw clean — in ${outDir}`,
);

function stripCondition(value) {
  if (Array.isArray(value)) return value.map(stripCondition);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== SOURCE_CONDITION)
      .map(([key, v]) => [key, stripCondition(v)]),
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
