import { spawn } from 'node:child_process';
import { dropMariadbTestDatabase } from '@cartwright/storage-conformance/mariadb-server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CLI_DIR, call, freshDatabaseUrl, runCartwright, startServe, stop } from './support/serve-process';

/**
 * The commands on MariaDB (decisions §1: `DATABASE_URL=mysql://…` or `mariadb://…`): what the CLI
 * does per engine is choosing and opening the storage and explaining its failures, so this runs
 * each command once on MariaDB; the rules behind the routes are the http and storage suites'.
 * Left out of runs where MariaDB is not a CLI target (vitest.config.ts, test-engines.ts `matrix`).
 */
const ADDRESS = { name: 'Ada', line1: '1 Main St', city: 'London', postal_code: 'EC1A 1BB', country: 'GB' };

/** The key a `keys create` run printed on its first line. */
function createKey(databaseUrl: string, type: 'secret' | 'publishable'): string {
  const { code, out } = runCartwright(['keys', 'create', '--type', type], { DATABASE_URL: databaseUrl });
  expect(code, out).toBe(0);
  return out.split('\n')[0] as string;
}

describe('the cartwright commands on MariaDB (DATABASE_URL=mysql://… or mariadb://…)', () => {
  let url = '';
  beforeAll(async () => {
    url = await freshDatabaseUrl('mariadb', '');
  });
  afterAll(async () => {
    if (url !== '') await dropMariadbTestDatabase(url);
  });

  test('migrate, keys create and reconcile take the URL in its mysql:// and its mariadb:// form', () => {
    expect(url).toMatch(/^mysql:\/\//);
    const migrate = runCartwright(['migrate'], { DATABASE_URL: url });
    expect(migrate.code, migrate.out).toBe(0);
    expect(migrate.out).toContain(`migrated ${url}`);
    const mariadbUrl = url.replace(/^mysql:/, 'mariadb:');
    expect(createKey(mariadbUrl, 'publishable')).toMatch(/^pk_test_[A-Za-z0-9_-]{20,}$/);
    const reconcile = runCartwright(['reconcile', '--limit', '10'], { DATABASE_URL: mariadbUrl });
    expect(reconcile.code, reconcile.out).toBe(0);
    expect(reconcile.out).toContain('checked 0 payment(s), acted on 0; refunds acted on: 0');
  }, 120_000);

  test('serve answers the storefront and a checkout with the keys of `keys create`; a worker runs beside it', async () => {
    const secret = createKey(url, 'secret');
    const publishable = createKey(url, 'publishable');
    const server = await startServe(url, { COMMERCE_API_KEYS: '' });
    try {
      expect(server.output()).toContain(`database: ${url}`);
      expect(server.output()).not.toContain('Generated API keys');
      const product = await call(server, 'POST', '/v1/admin/products', secret, {
        name: 'Tee',
        status: 'active',
        variants: [{ sku: 'TEE-MARIADB', price: 2500, inventory: { on_hand: 3 } }],
      });
      expect(product.status).toBe(200);
      const listed = await call(server, 'GET', '/v1/storefront/products', publishable);
      expect(listed.status).toBe(200);
      expect(listed.body.data.map((p: { name: string }) => p.name)).toContain('Tee');
      const cart = await call(server, 'POST', '/v1/storefront/carts', publishable, {
        items: [{ variant_id: product.body.variants[0].id, quantity: 2 }],
        shipping_address: ADDRESS,
      });
      expect(cart.status).toBe(200);
      const order = await call(server, 'POST', `/v1/storefront/carts/${cart.body.id}/checkout`, publishable, {
        email: 'ada@example.com',
        payment_provider: 'manual',
      });
      expect(order.status).toBe(201);
      expect(order.body.number).toBe(1001);

      const worker = spawn(
        process.execPath,
        ['--conditions=@cartwright/source', '--import', 'tsx', 'src/bin.ts', 'worker', '--no-reconcile'],
        { cwd: CLI_DIR, env: { ...process.env, DATABASE_URL: url }, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let out = '';
      const running = new Promise<void>((resolve, reject) => {
        const onData = (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('webhook worker running')) resolve();
        };
        worker.stdout.on('data', onData);
        worker.stderr.on('data', onData);
        worker.once('exit', (code) => reject(new Error(`worker exited with ${code}:\n${out}`)));
      });
      const exited = new Promise<string>((resolve) =>
        worker.once('exit', (code, signal) => resolve(`${code ?? signal}`)),
      );
      await running;
      worker.kill('SIGTERM');
      expect(await exited, out).toBe('0');
    } finally {
      await stop(server);
    }
  }, 120_000);

  test.each([
    [
      'a user the server does not know',
      (u: URL) => Object.assign(u, { username: 'nobody', password: 'hunter2secret' }),
      'access denied: wrong user or password (ER_ACCESS_DENIED_ERROR)',
    ],
    [
      'a database that does not exist',
      (u: URL) => Object.assign(u, { pathname: '/no_such_shop' }),
      'the database does not exist (create it first) (ER_BAD_DB_ERROR)',
    ],
  ])(
    '%s is one line saying so, password hidden, exit 2',
    (_what, change, hint) => {
      const bad = change(new URL(url)).toString();
      const { code, out } = runCartwright(['migrate'], { DATABASE_URL: bad });
      expect(code).toBe(2);
      expect(out.trim()).toMatch(/^cartwright: cannot use the database mysql:\/\/\S+: /);
      expect(out.trim().endsWith(hint)).toBe(true);
      expect(out).not.toContain('hunter2secret');
    },
    60_000,
  );
});
