import { createRequire } from 'node:module';

/**
 * The database drivers are optional peer dependencies: an app installs only the one it uses.
 * They are loaded when a storage is first created (not when `/sqlite` or `/postgres` is
 * imported), so that a missing driver is one line naming the package to install instead of
 * Node's `ERR_MODULE_NOT_FOUND` stack at import time.
 */
export type DriverName = 'better-sqlite3' | 'pg' | 'mysql2';

/** What to install: better-sqlite3 13 needs Node 22 and is outside the tested peer range. */
const INSTALL: Record<DriverName, string> = {
  'better-sqlite3': 'better-sqlite3@12',
  pg: 'pg',
  mysql2: 'mysql2',
};

const DRIVER_USE: Record<DriverName, string> = {
  'better-sqlite3': 'sqliteStorage() (@cartwright/storage-kysely/sqlite)',
  pg: 'postgresStorage() (@cartwright/storage-kysely/postgres)',
  mysql2: 'mysqlStorage() (@cartwright/storage-kysely/mysql)',
};

/**
 * Both drivers are CommonJS: `require` gives what `import x from '…'` would. The call sites
 * write `typeof require === 'function' ? require('<driver>') : requireHere('<driver>')`: a literal
 * `require` that bundlers see and resolve (and the CommonJS build uses), and in plain ESM, where
 * there is no `require`, one made for this file.
 */
export const requireHere: (id: string) => unknown = createRequire(import.meta.url);

export class DriverError extends Error {
  readonly code = 'ERR_CARTWRIGHT_DRIVER';
  override readonly name = 'DriverError';
}

/** Loads a driver, or throws a one-line {@link DriverError} naming the package to install. */
export function loadDriver<T>(name: DriverName, load: (id: string) => unknown = requireHere): T {
  try {
    return load(name) as T;
  } catch (error) {
    // Only the driver itself missing: a module missing inside it is another problem.
    if (isNotFound(error) && (error.message.split('\n')[0] ?? '').includes(`'${name}'`)) {
      const pnpm =
        name === 'better-sqlite3' ? '; with pnpm 10 also approve its build: pnpm approve-builds' : '';
      throw new DriverError(
        `${DRIVER_USE[name]} needs the ${name} package, which is not installed: npm install ${INSTALL[name]}${pnpm}`,
        { cause: error },
      );
    }
    throw error;
  }
}

/**
 * better-sqlite3 loads its native addon when the first database is opened. An addon that was
 * never built (pnpm 10 skips dependencies' build scripts until approved) or was built for
 * another Node.js becomes one line saying how to build it; every other error (a path that cannot
 * be opened, …) is rethrown as it is.
 */
export function explainAddonError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const first = error.message.split('\n')[0] ?? '';
  const missing = first.startsWith('Could not locate the bindings file');
  const mismatch =
    (error as { code?: unknown }).code === 'ERR_DLOPEN_FAILED' || /NODE_MODULE_VERSION/.test(first);
  if (!missing && !mismatch) return error;
  const what = missing
    ? 'its native addon was never built'
    : `its native addon does not load on Node ${process.version}`;
  return new DriverError(
    `better-sqlite3 is installed but ${what}: with pnpm 10 run pnpm approve-builds (or list better-sqlite3 in onlyBuiltDependencies) then pnpm rebuild better-sqlite3; with npm, npm rebuild better-sqlite3`,
    { cause: error },
  );
}

function isNotFound(error: unknown): error is Error {
  return error instanceof Error && (error as { code?: unknown }).code === 'MODULE_NOT_FOUND';
}
