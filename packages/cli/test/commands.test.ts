import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { readConfig } from '../src/config';
import { call, runCartwright as cartwright, startServe, stop } from './support/serve-process';

describe('cartwright commands', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cartwright-cmd-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, 'shop.db');

  test.each(['serve', 'migrate', 'keys', 'seed', 'worker', 'reconcile'])(
    '%s --help prints its usage',
    (command) => {
      const { code, out } = cartwright([command, '--help']);
      expect(code).toBe(0);
      expect(out).toContain(`Usage: cartwright ${command}`);
    },
  );

  test('--version prints the version; `cartwright` alone prints the command list', () => {
    const version = cartwright(['--version']);
    expect(version.code).toBe(0);
    expect(version.out.trim()).toMatch(/^cartwright \d+\.\d+\.\d+/);
    expect(cartwright([]).out).toContain('Usage: cartwright <command>');
  });

  test('flags: --flag=value works, an unknown flag or a missing value is refused with the usage (exit 2)', () => {
    const key = cartwright(['keys', 'create', '--type=publishable', '--mode=test'], { DATABASE_URL: db });
    expect(key.code).toBe(0);
    expect(key.out.split('\n')[0]).toMatch(/^pk_test_[A-Za-z0-9_-]{20,}$/);
    const typo = cartwright(['keys', 'create', '--tpye', 'publishable'], { DATABASE_URL: db });
    expect(typo.code).toBe(2);
    expect(typo.out).toMatch(/Unknown option '--tpye'/);
    expect(typo.out).toContain('Usage: cartwright keys create');
    const bad = cartwright(['keys', 'create', '--type', 'admin'], { DATABASE_URL: db });
    expect(bad.code).toBe(2);
    expect(bad.out).toContain("--type must be secret or publishable, got 'admin'");
    const missing = cartwright(['worker', '--interval-ms'], { DATABASE_URL: db });
    expect(missing.code).toBe(2);
    expect(missing.out).toContain("'--interval-ms");
    const stray = cartwright(['migrate', 'now'], { DATABASE_URL: db });
    expect(stray.code).toBe(2);
  }, 60_000);

  test.each([
    ['sqlite://shop:hunter2secret@db.example.com/shop', "DATABASE_URL has the scheme 'sqlite:'"],
    ['postgress://shop:hunter2secret@db.example.com/shop', "DATABASE_URL has the scheme 'postgress:'"],
    ['mysql://shop:hunter2secret@db.example.com', 'DATABASE_URL names no database: expected mysql://'],
    ['mariadb://shop:hunter2secret@db.example.com/', 'DATABASE_URL names no database: expected mariadb://'],
    ['mysql://shop:hunter2secret@db.example.com:port/shop', 'DATABASE_URL is not a valid mysql:// URL'],
    ['postgres://shop:hunter2secret@db.example.com:port/shop', 'DATABASE_URL is not a valid postgres:// URL'],
  ])('DATABASE_URL=%s is refused in one line without its password (exit 2)', (url, expected) => {
    const { code, out } = cartwright(['migrate'], { DATABASE_URL: url });
    expect(code).toBe(2);
    expect(out).toContain(`cartwright: ${expected}`);
    expect(out).not.toContain('hunter2secret');
    expect(out.trim().split('\n')).toHaveLength(1);
  });

  test('an unreachable PostgreSQL is one line naming the server (password hidden), exit 2, no stack', () => {
    const { code, out } = cartwright(['migrate'], {
      DATABASE_URL: 'postgres://shop:hunter2secret@127.0.0.1:1/shop',
    });
    expect(code).toBe(2);
    expect(out.trim()).toBe(
      'cartwright: cannot use the database postgres://shop:***@127.0.0.1:1/shop: nothing accepts connections there — is the server running, and on that port? (ECONNREFUSED)',
    );
  }, 60_000);

  test.each([
    ['mysql', 'mysql://shop:***@127.0.0.1:1/shop'],
    ['mariadb', 'mariadb://shop:***@127.0.0.1:1/shop'],
  ])(
    'an unreachable MariaDB (%s://) is one line naming the server (password hidden), exit 2, no stack',
    (scheme, shown) => {
      const { code, out } = cartwright(['migrate'], {
        DATABASE_URL: `${scheme}://shop:hunter2secret@127.0.0.1:1/shop`,
      });
      expect(code).toBe(2);
      expect(out.trim()).toBe(
        `cartwright: cannot use the database ${shown}: nothing accepts connections there — is the server running, and on that port? (ECONNREFUSED)`,
      );
    },
    60_000,
  );

  test.each([
    ['reconcile', '--limit', '-5'],
    ['reconcile', '--older-than-ms', '-1'],
    ['worker', '--interval-ms', '-100'],
  ])(
    '`%s %s %s`: a negative number is refused as that flag\'s value, not as an "ambiguous argument" (exit 2)',
    (command, flag, value) => {
      const { code, out } = cartwright([command, flag, value], { DATABASE_URL: db });
      expect(code).toBe(2);
      expect(out).toContain(`cartwright: ${flag} must be a whole number ≥`);
      expect(out).toContain(`got '${value}'`);
      expect(out).not.toContain('ambiguous');
    },
    60_000,
  );

  test('a relative DATABASE_URL is resolved against where the command was typed (INIT_CWD under pnpm), and printed', () => {
    const { code, out } = cartwright(['migrate'], { DATABASE_URL: './nested/relative.db', INIT_CWD: dir });
    expect(code).toBe(0);
    expect(out).toContain(`migrated SQLite file ${join(dir, 'nested', 'relative.db')}`);
  }, 60_000);

  test('without DATABASE_URL every command uses .data/commerce.db at the project root, wherever it is typed: the key `keys create` prints in a subfolder works on the server started in another', async () => {
    const project = join(dir, 'project');
    mkdirSync(join(project, 'docs', 'guides'), { recursive: true });
    mkdirSync(join(project, 'packages', 'app'), { recursive: true });
    writeFileSync(join(project, 'pnpm-workspace.yaml'), 'packages:\n  - packages/*\n');
    writeFileSync(join(project, 'package.json'), '{ "name": "shop", "private": true }');
    writeFileSync(join(project, 'packages', 'app', 'package.json'), '{ "name": "app" }');
    const database = join(project, '.data', 'commerce.db');
    // pnpm runs a root script (`pnpm cartwright …`) in the root and sets INIT_CWD to where it was typed.
    const key = cartwright(['keys', 'create'], {
      DATABASE_URL: '',
      INIT_CWD: join(project, 'docs', 'guides'),
    });
    expect(key.code).toBe(0);
    expect(key.out).toContain(`(secret test key for SQLite file ${database}; shown once)`);
    expect(existsSync(join(project, 'docs', 'guides', '.data'))).toBe(false);
    const secret = key.out.split('\n')[0] as string;
    const server = await startServe('', {
      INIT_CWD: join(project, 'packages', 'app'),
      COMMERCE_API_KEYS: '',
    });
    try {
      expect(server.output()).toContain(`database: SQLite file ${database}`);
      expect(server.output()).not.toContain('Generated API keys');
      expect((await call(server, 'GET', '/v1/admin/store', secret)).status).toBe(200);
    } finally {
      await stop(server);
    }
  }, 60_000);

  test('the project root: the nearest workspace (pnpm-workspace.yaml, or package.json with workspaces), else the nearest package, else the folder itself', () => {
    const at = (path: string) => readConfig({ INIT_CWD: join(dir, path) }).databaseUrl;
    mkdirSync(join(dir, 'npm-workspace', 'apps', 'shop', 'src'), { recursive: true });
    writeFileSync(join(dir, 'npm-workspace', 'package.json'), '{ "workspaces": ["apps/*"] }');
    writeFileSync(join(dir, 'npm-workspace', 'apps', 'shop', 'package.json'), '{ "name": "shop" }');
    expect(at('npm-workspace/apps/shop/src')).toBe(join(dir, 'npm-workspace', '.data', 'commerce.db'));
    mkdirSync(join(dir, 'single', 'src'), { recursive: true });
    writeFileSync(join(dir, 'single', 'package.json'), '{ "name": "single" }');
    expect(at('single/src')).toBe(join(dir, 'single', '.data', 'commerce.db'));
    mkdirSync(join(dir, 'loose'), { recursive: true });
    expect(at('loose')).toBe(join(dir, 'loose', '.data', 'commerce.db'));
    // A path given in DATABASE_URL is the user's: relative to where the command was typed.
    expect(readConfig({ INIT_CWD: join(dir, 'single', 'src'), DATABASE_URL: 'x.db' }).databaseUrl).toBe(
      join(dir, 'single', 'src', 'x.db'),
    );
  });

  test('malformed COMMERCE_API_KEYS are one line naming the key by its start only (exit 2)', () => {
    const { code, out } = cartwright(['serve'], {
      DATABASE_URL: join(dir, 'badkeys.db'),
      PORT: '0',
      COMMERCE_API_KEYS: 'sk_test_goodKey000000000001,sk_prod_abcdefghijklmnop',
    });
    expect(code).toBe(2);
    expect(out).toContain("COMMERCE_API_KEYS: key 2 ('sk_prod_…') is not an API key");
    expect(out).not.toContain('abcdefghijklmnop');
  }, 60_000);

  test('an unknown command exits 2 with the command list', () => {
    const { code, out } = cartwright(['frobnicate']);
    expect(code).toBe(2);
    expect(out).toContain('Unknown command');
  });

  test('migrate, keys create, seed --demo and reconcile work on a fresh SQLite file', () => {
    expect(cartwright(['migrate'], { DATABASE_URL: db }).out).toContain('migrated');
    const key = cartwright(['keys', 'create', '--type', 'publishable', '--mode', 'live'], {
      DATABASE_URL: db,
    });
    expect(key.code).toBe(0);
    expect(key.out.split('\n')[0]).toMatch(/^pk_live_[A-Za-z0-9_-]{20,}$/);
    expect(cartwright(['seed', '--demo'], { DATABASE_URL: db }).out).toContain('demo catalog loaded');
    expect(cartwright(['seed', '--demo'], { DATABASE_URL: db }).out).toContain('already has products');
    const reconcile = cartwright(['reconcile'], { DATABASE_URL: db });
    expect(reconcile.code).toBe(0);
    expect(reconcile.out).toContain('checked 0 payment(s), acted on 0; refunds acted on: 0');
  }, 120_000);
});
