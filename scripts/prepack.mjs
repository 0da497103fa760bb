#!/usr/bin/env node
// `prepack` of every published package (`pnpm pack`, `pnpm publish`, `changeset publish`): the
// tarball gets the package's current JavaScript and declarations, whatever was built before.
// `pnpm install` builds only the JavaScript (`build:js`, the root postinstall), and the
// declaration build of a package reads the built declarations of the workspace packages it
// imports (scripts/build-dts.mjs), so, run from a package directory:
//   1. every workspace package it depends on (any dependency field, transitively, dependencies
//      first) is built (`build`) when its declarations are missing or older than its sources;
//   2. the package itself is built (`build`: tsup, then the declarations), always.
// One prepack at a time builds (a lock in node_modules/.cache), whatever order packs run in.
// Usage (package.json): "prepack": "node ../../scripts/prepack.mjs"
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const DEPENDENCY_FIELDS = ['dependencies', 'peerDependencies', 'optionalDependencies', 'devDependencies'];
const importedCache = new Map();

/** The package names the non-test .ts files of dir/src import (static or dynamic). */
function importedBySources(dir) {
  if (!importedCache.has(dir)) {
    const names = new Set();
    for (const file of files(join(dir, 'src'))) {
      if (!file.endsWith('.ts') || /\.test(-d)?\.ts$/.test(file)) continue;
      const text = readFileSync(file, 'utf8');
      for (const [, name] of text.matchAll(/(?:\bfrom|\bimport\s*\(?)\s*['"]((?:@[\w.-]+\/)?[\w.-]+)/g)) {
        names.add(name);
      }
    }
    importedCache.set(dir, names);
  }
  return importedCache.get(dir);
}

/** The packages of packages/*, by name: { name, dir, pkg }. */
export function workspacePackages(root) {
  const byName = new Map();
  for (const entry of readdirSync(join(root, 'packages')).sort()) {
    const dir = join(root, 'packages', entry);
    if (!existsSync(join(dir, 'package.json'))) continue;
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    byName.set(pkg.name, { name: pkg.name, dir, pkg });
  }
  return byName;
}

/**
 * The workspace packages whose declarations the declaration build of `name` reads, transitively,
 * dependencies before dependents: its dependencies, peer and optional dependencies, and the
 * development dependencies its published sources (src/ without tests) import.
 */
export function workspaceDependencies(byName, name) {
  const ordered = [];
  const seen = new Set([name]);
  const visit = (current) => {
    const { pkg, dir } = byName.get(current);
    const imported = importedBySources(dir);
    for (const field of DEPENDENCY_FIELDS) {
      for (const dep of Object.keys(pkg[field] ?? {})) {
        if (seen.has(dep) || !byName.has(dep)) continue;
        if (field === 'devDependencies' && !imported.has(dep)) continue;
        seen.add(dep);
        visit(dep);
        ordered.push(dep);
      }
    }
  };
  visit(name);
  return ordered;
}

/** Every workspace package, dependencies before dependents (the order to build or pack them). */
export function topologicalOrder(byName) {
  const ordered = [];
  for (const name of byName.keys()) {
    for (const dep of [...workspaceDependencies(byName, name), name]) {
      if (!ordered.includes(dep)) ordered.push(dep);
    }
  }
  return ordered;
}

/** The declaration files package.json's exports name (./dist/….d.ts, .d.cts). */
export function declarationTargets(pkg) {
  const targets = new Set();
  const collect = (value, key) => {
    if (typeof value === 'string') {
      if (key === 'types') targets.add(value);
    } else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) collect(v, k);
    }
  };
  collect(pkg.exports, undefined);
  return [...targets];
}

/** Why a package's declarations need a build, or undefined when they are current. */
export function staleDeclarations({ dir, pkg }) {
  const targets = declarationTargets(pkg).map((target) => join(dir, target));
  const missing = targets.find((target) => !existsSync(target));
  if (missing) return `${relative(dir, missing)} is missing`;
  const built = Math.min(...targets.map((target) => statSync(target).mtimeMs));
  const inputs = [
    ...['package.json', 'tsconfig.json', 'tsup.config.ts'].map((file) => join(dir, file)),
    ...files(join(dir, 'src')),
  ].filter((file) => existsSync(file));
  const newer = inputs.find((file) => statSync(file).mtimeMs > built);
  return newer ? `${relative(dir, newer)} is newer than its declarations` : undefined;
}

function files(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

function build({ name, dir }, why) {
  console.log(`prepack: building ${name} (${why})`);
  execFileSync('pnpm', ['run', '--silent', 'build'], { cwd: dir, stdio: 'inherit' });
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
  const byName = workspacePackages(root);
  const cwd = realpathSync(process.cwd());
  const self = [...byName.values()].find(({ dir }) => realpathSync(dir) === cwd);
  if (!self) throw new Error(`prepack: ${process.cwd()} is not a package of ${join(root, 'packages')}`);
  const release = lock(join(root, 'node_modules', '.cache', 'cartwright-prepack.lock'));
  try {
    for (const dep of workspaceDependencies(byName, self.name)) {
      const why = staleDeclarations(byName.get(dep));
      if (why) build(byName.get(dep), `a dependency of ${self.name}: ${why}`);
    }
    build(self, 'what the tarball ships');
  } finally {
    release();
  }
}

/**
 * One prepack builds at a time: `changeset publish` packs several packages at once, in no
 * particular order, and two builds of one package (or a build of core while http's declaration
 * build reads core's) would clobber each other's dist/. A directory is the lock; one left by a
 * process that is gone is taken over.
 */
function lock(dir) {
  mkdirSync(dirname(dir), { recursive: true });
  const deadline = Date.now() + 15 * 60_000;
  for (;;) {
    try {
      mkdirSync(dir);
      writeFileSync(join(dir, 'pid'), String(process.pid));
      return () => rmSync(dir, { recursive: true, force: true });
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    let holder;
    try {
      holder = Number(readFileSync(join(dir, 'pid'), 'utf8'));
    } catch {
      holder = undefined; // being written or removed
    }
    if (holder && !alive(holder)) rmSync(dir, { recursive: true, force: true });
    else if (Date.now() > deadline) throw new Error(`prepack: ${dir} held for 15 minutes`);
    else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}
