#!/usr/bin/env node
// The release, dry (CI runs it): what `changeset version` and then `changeset publish` would do
// with the changesets of .changeset/, printed, and refused when it is not what they ask for.
//   1. The plan (@changesets/get-release-plan, the code `changeset version` and `status` run,
//      with no git ref: every changeset in .changeset/, so a fresh clone or a detached checkout
//      sees the same plan as a branch).
//   2. `changeset version` run for real on a throwaway copy of the manifests and .changeset/
//      (the repository is not touched), then the copy's package.json files and CHANGELOG.md read
//      back, and each workspace dependency range resolved as `pnpm publish` writes it.
// It fails when: a changeset does not parse, or names a package that is not published; a private
// package (examples, bench, tools) would be versioned or a package outside packages/ is not
// private; a package would get a bigger bump than any changeset asks for (the peer-dependency rule
// of changesets 2 did that, and the fixed group then released all of 0.x as 1.0.0 — patched in
// patches/); the published packages would not share one version (they are a fixed group); a
// published package would leave 0.x (1.0.0) without `--allow-major`; a published dependency range
// would not accept the version released beside it.
// Usage: node scripts/release-dry-run.mjs [--allow-major]
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const allowMajor = process.argv.includes('--allow-major');
const changesetsCli = realpathSync(join(root, 'node_modules', '@changesets', 'cli'));
const requireFromCli = createRequire(join(changesetsCli, 'package.json'));
const getReleasePlan = requireFromCli('@changesets/get-release-plan').default;
const semver = requireFromCli('semver');

const problems = [];
const RANK = { none: 0, patch: 1, minor: 2, major: 3 };

// --- the workspace ----------------------------------------------------------------------------
/** @type {{ name: string, version: string, path: string, private?: boolean }[]} */
const workspace = JSON.parse(
  execFileSync('pnpm', ['ls', '-r', '--depth', '-1', '--json'], { cwd: root, encoding: 'utf8' }),
).filter((p) => p.path !== root);
const published = workspace.filter((p) => !p.private);
const privates = workspace.filter((p) => p.private);
for (const p of published) {
  if (relative(root, p.path).split('/')[0] !== 'packages') {
    problems.push(`${p.name} (${relative(root, p.path)}) is not private but lives outside packages/`);
  }
}
const isPublished = (name) => published.some((p) => p.name === name);

// --- 1. the plan --------------------------------------------------------------------------------
const plan = await getReleasePlan(root);
let asked = 'none';
for (const changeset of plan.changesets) {
  for (const release of changeset.releases) {
    if (!isPublished(release.name)) {
      problems.push(`.changeset/${changeset.id}.md names ${release.name}, which is not published`);
    }
    if (RANK[release.type] > RANK[asked]) asked = release.type;
  }
}
const releases = plan.releases.filter((r) => r.type !== 'none');
for (const release of releases) {
  if (!isPublished(release.name)) problems.push(`${release.name} is private but would be versioned`);
  if (RANK[release.type] > RANK[asked]) {
    problems.push(
      `${release.name} would get a ${release.type} bump (${release.oldVersion} → ${release.newVersion}) though no changeset asks for more than ${asked}`,
    );
  }
  if (semver.major(release.newVersion) > semver.major(release.oldVersion) && !allowMajor) {
    problems.push(
      `${release.name} would be released as ${release.newVersion}: leaving ${semver.major(release.oldVersion)}.x needs --allow-major`,
    );
  }
}
const newVersions = new Set(releases.map((r) => r.newVersion));
if (newVersions.size > 1) {
  problems.push(`the fixed group would split over versions ${[...newVersions].join(', ')}`);
}
if (releases.length > 0 && releases.length !== published.length) {
  const missing = published.filter((p) => !releases.some((r) => r.name === p.name)).map((p) => p.name);
  problems.push(`the fixed group would leave out ${missing.join(', ')}`);
}

// --- 2. `changeset version` on a copy -------------------------------------------------------------
const copy = mkdtempSync(join(tmpdir(), 'cartwright-release-'));
process.on('exit', () => rmSync(copy, { recursive: true, force: true }));
for (const file of ['package.json', 'pnpm-workspace.yaml', '.changeset']) {
  cpSync(join(root, file), join(copy, file), { recursive: true });
}
for (const p of workspace) {
  mkdirSync(join(copy, relative(root, p.path)), { recursive: true });
  cpSync(join(p.path, 'package.json'), join(copy, relative(root, p.path), 'package.json'));
}
symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
if (releases.length > 0) {
  execFileSync(process.execPath, [join(changesetsCli, 'bin.js'), 'version'], {
    cwd: copy,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
const after = new Map(
  workspace.map((p) => [
    p.name,
    JSON.parse(readFileSync(join(copy, relative(root, p.path), 'package.json'), 'utf8')),
  ]),
);
for (const p of privates) {
  if (after.get(p.name).version !== p.version) {
    problems.push(`changeset version changed private ${p.name}: ${p.version} → ${after.get(p.name).version}`);
  }
}

// --- what would be published ------------------------------------------------------------------
const width = Math.max(...published.map((p) => p.name.length));
console.log(
  `release dry run: ${plan.changesets.length} changesets (largest bump asked: ${asked}) → ${releases.length} of ${published.length} published packages`,
);
for (const p of published) {
  const release = releases.find((r) => r.name === p.name);
  const manifest = after.get(p.name);
  if (release && manifest.version !== release.newVersion) {
    problems.push(
      `${p.name}: changeset version wrote ${manifest.version}, the plan says ${release.newVersion}`,
    );
  }
  // Workspace dependencies as `pnpm publish` writes them, checked against the released versions.
  const ranges = [];
  for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
    for (const [dep, spec] of Object.entries(manifest[field] ?? {})) {
      const target = after.get(dep);
      if (!target) continue;
      const range = publishedRange(spec, target.version);
      if (!isPublished(dep)) problems.push(`${p.name}: ${field} names private ${dep}`);
      else if (!semver.satisfies(target.version, range)) {
        problems.push(
          `${p.name}: ${field}.${dep} would be published as ${range}, which ${target.version} does not satisfy`,
        );
      }
      ranges.push(
        `${field === 'peerDependencies' ? 'peer ' : ''}${dep.replace('@cartwright/', '')} ${range}`,
      );
    }
  }
  const changelog = join(copy, relative(root, p.path), 'CHANGELOG.md');
  const heading = existsSync(changelog) ? /^## (.+)$/m.exec(readFileSync(changelog, 'utf8'))?.[1] : undefined;
  if (release && heading !== release.newVersion) {
    problems.push(
      `${p.name}: CHANGELOG.md would start at ${heading ?? 'nothing'}, not ${release.newVersion}`,
    );
  }
  console.log(
    `  ${p.name.padEnd(width)}  ${release ? `${p.version} → ${release.newVersion} (${release.type}, ${release.changesets.length} changesets, CHANGELOG.md ## ${heading ?? 'missing'})` : `${p.version} (no release)`}${ranges.length > 0 ? `  [${ranges.join(', ')}]` : ''}`,
  );
}
console.log(`  not published (private): ${privates.map((p) => p.name).join(', ')}`);

if (problems.length > 0) {
  console.error(`\nrelease dry run: ${problems.length} problem(s)\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
console.log('release dry run: clean');

/** The range `pnpm publish` writes for a dependency spec (workspace:* → the version, …). */
function publishedRange(spec, version) {
  if (!spec.startsWith('workspace:')) return spec;
  const range = spec.slice('workspace:'.length);
  if (range === '*') return version;
  if (range === '^' || range === '~') return `${range}${version}`;
  return range;
}
