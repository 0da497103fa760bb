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
    expect(key.out.trim()).toMatch(/^pk_live_[A-Za-z0-9_-]{20,}$/);
    expect(cartwright(['seed', '--demo'], { DATABASE_URL: db }).out).toContain('demo catalog loaded');
    expect(cartwright(['seed', '--demo'], { DATABASE_URL: db }).out).toContain('already has products');
    const reconcile = cartwright(['reconcile'], { DATABASE_URL: db });
    expect(reconcile.code).toBe(0);
    expect(reconcile.out).toContain('checked 0 payment(s), acted on 0; refunds acted on: 0');
  }, 120_000);
});
