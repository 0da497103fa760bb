import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sqliteStorage } from '../sqlite';
import { DriverError, explainAddonError, loadDriver } from './load-driver';

// A directory with no node_modules of ours: Node's real resolution from there finds no driver.
const dir = mkdtempSync(join(tmpdir(), 'cartwright-load-driver-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const requireFrom = (sub: string) => createRequire(join(dir, sub, 'index.js'));

/**
 * loadDriver(name) as resolved from an app directory that has no drivers, in a fresh Node
 * process: the test runner's own process resolves through NODE_PATH (set by pnpm's bin shims to
 * the workspace's hoisted store, where both drivers are), which an app would not have.
 */
function loadInAppWithoutDrivers(name: string) {
  const app = join(dir, 'empty-app');
  mkdirSync(app, { recursive: true });
  const script = `
    import { createRequire } from 'node:module';
    import { loadDriver } from ${JSON.stringify(join(import.meta.dirname, 'load-driver.ts'))};
    try {
      loadDriver(${JSON.stringify(name)}, createRequire(${JSON.stringify(join(app, 'index.js'))}));
      console.log(JSON.stringify({ loaded: true }));
    } catch (e) {
      console.log(JSON.stringify({ name: e.name, code: e.code, message: e.message, causeCode: e.cause?.code }));
    }`;
  const env = { ...process.env };
  delete env.NODE_PATH;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: import.meta.dirname, // where `tsx` resolves; the driver is looked up from `app`
    env,
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Record<string, string | undefined>;
}

/** A package `name` in `<dir>/<app>/node_modules` whose index.js is `code`. */
function installFake(app: string, name: string, code: string): void {
  const pkg = join(dir, app, 'node_modules', name);
  mkdirSync(pkg, { recursive: true });
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name, main: 'index.js' }));
  writeFileSync(join(pkg, 'index.js'), code);
}

describe('loadDriver', () => {
  it.each([
    ['better-sqlite3', 'sqliteStorage() (@cartwright/storage-kysely/sqlite)', 'pnpm approve-builds'],
    ['pg', 'postgresStorage() (@cartwright/storage-kysely/postgres)', undefined],
  ] as const)('a missing %s is one line naming the package to install', (name, use, pnpmHint) => {
    const error = loadInAppWithoutDrivers(name);
    expect(error.name).toBe('DriverError');
    expect(error.code).toBe('ERR_CARTWRIGHT_DRIVER');
    expect(error.message).not.toContain('\n');
    expect(error.message).toContain(use);
    expect(error.message).toContain(`npm install ${name}`);
    if (pnpmHint) expect(error.message).toContain(pnpmHint);
    else expect(error.message).not.toContain('approve-builds');
    expect(error.causeCode).toBe('MODULE_NOT_FOUND');
  });

  it('loads the installed drivers (what `import … from` would give)', async () => {
    const Database = loadDriver<typeof import('better-sqlite3')>('better-sqlite3');
    const db = new Database(':memory:');
    expect(db.prepare('select 1 + 1 as two').get()).toEqual({ two: 2 });
    db.close();
    const pg = loadDriver<typeof import('pg')>('pg');
    expect(pg).toBe((await import('pg')).default);
  });

  it('rethrows, unchanged, a module missing inside an installed driver', () => {
    installFake('broken-app', 'pg', "require('pg-protocol-that-is-not-there');");
    expect(() => loadDriver('pg', requireFrom('broken-app'))).toThrow(
      expect.objectContaining({
        code: 'MODULE_NOT_FOUND',
        message: expect.stringContaining('pg-protocol-that-is-not-there'),
      }),
    );
  });
});

describe('explainAddonError', () => {
  it('turns a better-sqlite3 whose native addon was never built into one line about building it', () => {
    // What better-sqlite3 throws on its first open when pnpm skipped its build script.
    installFake(
      'unbuilt-app',
      'better-sqlite3',
      `module.exports = function Database() {
        throw new Error('Could not locate the bindings file. Tried:\\n → ${dir}/build/better_sqlite3.node\\n → ${dir}/build/Release/better_sqlite3.node');
      };`,
    );
    const Database = loadDriver<new (f: string) => unknown>('better-sqlite3', requireFrom('unbuilt-app'));
    let thrown: unknown;
    try {
      new Database(':memory:');
    } catch (error) {
      thrown = error;
    }
    const explained = explainAddonError(thrown);
    expect(explained).toBeInstanceOf(DriverError);
    expect((explained as Error).message).not.toContain('\n');
    expect((explained as Error).message).toMatch(
      /never built.*pnpm approve-builds.*pnpm rebuild better-sqlite3/,
    );
    expect((explained as Error).cause).toBe(thrown);
  });

  it('leaves every other open error as it is', () => {
    let error: unknown;
    try {
      sqliteStorage({ filename: dir }); // a directory: SQLite cannot open it
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'SQLITE_CANTOPEN' });
    expect(explainAddonError(error)).toBe(error);
    expect(explainAddonError('not an error')).toBe('not an error');
  });
});
