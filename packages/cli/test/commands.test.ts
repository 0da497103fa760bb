import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';

const CLI_DIR = resolve(import.meta.dirname, '..');

function cartwright(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(
    process.execPath,
    ['--conditions=@cartwright/source', '--import', 'tsx', 'src/bin.ts', ...args],
    {
      cwd: CLI_DIR,
      env: { ...process.env, ...env },
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
  return { code: result.status, out: `${result.stdout}${result.stderr}` };
}

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
    ['mysql://shop:hunter2secret@db.example.com/shop', "the scheme 'mysql:'"],
    ['postgress://shop:hunter2secret@db.example.com/shop', "the scheme 'postgress:'"],
  ])('DATABASE_URL=%s is refused in one line without its password (exit 2)', (url, expected) => {
    const { code, out } = cartwright(['migrate'], { DATABASE_URL: url });
    expect(code).toBe(2);
    expect(out).toContain(expected);
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

  test('a relative DATABASE_URL is resolved against where the command was typed (INIT_CWD under pnpm), and printed', () => {
    const { code, out } = cartwright(['migrate'], { DATABASE_URL: './nested/relative.db', INIT_CWD: dir });
    expect(code).toBe(0);
    expect(out).toContain(`migrated SQLite file ${join(dir, 'nested', 'relative.db')}`);
  }, 60_000);

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
