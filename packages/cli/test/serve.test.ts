import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';

const CLI_DIR = resolve(import.meta.dirname, '..');

/** Every child started here, so a failing test never leaves a server running. */
const children = new Set<ChildProcess>();
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

/** Starts `cartwright serve` as a child process and collects its output. */
function startServe(env: Record<string, string>): {
  child: ChildProcess;
  output: () => string;
  waitFor: (pattern: RegExp, timeoutMs?: number) => Promise<RegExpMatchArray>;
} {
  const child = spawn(
    process.execPath,
    ['--conditions=@cartwright/source', '--import', 'tsx', 'src/bin.ts', 'serve'],
    {
      cwd: CLI_DIR,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  return {
    child,
    output: () => out,
    waitFor(pattern, timeoutMs = 20_000) {
      return new Promise((resolvePromise, reject) => {
        const started = Date.now();
        const tick = () => {
          const match = out.match(pattern);
          if (match) return resolvePromise(match);
          if (child.exitCode !== null) return reject(new Error(`serve exited early:\n${out}`));
          if (Date.now() - started > timeoutMs)
            return reject(new Error(`timed out waiting for ${pattern}:\n${out}`));
          setTimeout(tick, 25);
        };
        tick();
      });
    },
  };
}

describe('cartwright serve', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cartwright-cli-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('first start on a fresh database prints generated keys and the listening line, serves /v1, logs requests, exits 0 on SIGTERM', async () => {
    const serve = startServe({
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: join(dir, 'shop.db'),
      COMMERCE_API_KEYS: '',
    });
    const [, url] = await serve.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    const publishable = serve.output().match(/pk_test_[A-Za-z0-9_-]+/)?.[0];
    const secret = serve.output().match(/sk_test_[A-Za-z0-9_-]+/)?.[0];
    expect(publishable).toBeDefined();
    expect(secret).toBeDefined();

    const store = await fetch(`${url}/v1/admin/store`, { headers: { authorization: `Bearer ${secret}` } });
    expect(store.status).toBe(200);
    expect(((await store.json()) as { currency: string }).currency).toBe('USD');

    const forbidden = await fetch(`${url}/v1/admin/store`, {
      headers: { authorization: `Bearer ${publishable}` },
    });
    expect(forbidden.status).toBe(403);

    const unauthenticated = await fetch(`${url}/v1/admin/store`);
    expect(unauthenticated.status).toBe(401);
    const requestId = unauthenticated.headers.get('request-id');
    expect(requestId).toMatch(/^req_/);
    // one structured log line per request, carrying its request id, status and duration
    await serve.waitFor(new RegExp(`"request_id":"${requestId}"[^\\n]*"status":401[^\\n]*"duration_ms"`));
    // 4xx lines carry the error code; the query string (the guest lookup's e-mail) is not logged.
    const lookup = await fetch(
      `${url}/v1/storefront/orders/lookup?number=1001&email=secret.person@example.com`,
      {
        headers: { authorization: `Bearer ${publishable}` },
      },
    );
    expect(lookup.status).toBe(404);
    const lookupId = lookup.headers.get('request-id');
    const [line] = await serve.waitFor(new RegExp(`[^\\n]*"request_id":"${lookupId}"[^\\n]*`));
    expect(JSON.parse(line)).toMatchObject({
      path: '/v1/storefront/orders/lookup?…',
      status: 404,
      code: 'not_found',
    });
    expect(serve.output()).not.toContain('secret.person');
    expect(serve.output()).toContain(`API reference: ${url}/v1/docs`);

    serve.child.kill('SIGTERM');
    const code = await new Promise<number | null>((r) => serve.child.once('exit', (c) => r(c)));
    expect(code).toBe(0);
  }, 60_000);

  test('COMMERCE_API_KEYS are registered idempotently and nothing is generated', async () => {
    const db = join(dir, 'keys.db');
    const key = 'sk_test_configuredKey0000000000000000001';
    for (let run = 0; run < 2; run++) {
      const serve = startServe({
        PORT: '0',
        DATABASE_URL: db,
        COMMERCE_API_KEYS: `${key},pk_test_configuredKey00000000000000001`,
      });
      const [, url] = await serve.waitFor(/listening on (http:\/\/[^\s]+)/);
      expect(serve.output()).not.toMatch(/Generated API keys/);
      const res = await fetch(`${url}/v1/admin/store`, { headers: { authorization: `Bearer ${key}` } });
      expect(res.status).toBe(200);
      serve.child.kill('SIGTERM');
      expect(await new Promise((r) => serve.child.once('exit', r))).toBe(0);
    }
  }, 60_000);

  test("GET / points to the API reference and the OpenAPI document (JSON, or HTML for a browser) instead of a 404; other paths stay the API's", async () => {
    const serve = startServe({
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: ':memory:',
      COMMERCE_API_KEYS: '',
    });
    try {
      const [, url] = await serve.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
      const json = await fetch(`${url}/`);
      expect(json.status).toBe(200);
      expect(json.headers.get('content-type')).toBe('application/json');
      expect(await json.json()).toMatchObject({
        api: '/v1',
        api_reference: '/v1/docs',
        openapi: '/v1/openapi.json',
      });
      const page = await fetch(`${url}/?from=bookmark`, {
        headers: { accept: 'text/html,application/xhtml+xml' },
      });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const html = await page.text();
      expect(html).toContain('href="/v1/docs"');
      expect(html).toContain('href="/v1/openapi.json"');
      // The pointers lead somewhere.
      expect((await fetch(`${url}/v1/docs`)).status).toBe(200);
      expect((await fetch(`${url}/v1/openapi.json`)).status).toBe(200);
      // Only GET and HEAD of `/` itself: the rest is the API's (its 404 and 405 answers).
      expect((await fetch(`${url}/`, { method: 'HEAD' })).status).toBe(200);
      expect((await fetch(`${url}/`, { method: 'POST' })).status).not.toBe(200);
      expect((await fetch(`${url}/index.html`)).status).toBe(404);
      // …and logged like any request.
      await serve.waitFor(/"method":"GET","path":"\/","status":200/);
    } finally {
      serve.child.kill('SIGTERM');
      await new Promise((r) => serve.child.once('exit', r));
    }
  }, 60_000);

  test('SIGINT (Ctrl-C) drains and exits 0', async () => {
    const serve = startServe({
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: ':memory:',
      COMMERCE_API_KEYS: '',
    });
    await serve.waitFor(/listening on/);
    serve.child.kill('SIGINT');
    expect(await new Promise((r) => serve.child.once('exit', (c) => r(c)))).toBe(0);
    expect(serve.output()).toContain('SIGINT received, draining');
  }, 60_000);

  test('a port in use is one line with what to do, exit 2, no stack', async () => {
    const blocker = createNetServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const serve = startServe({ PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: ':memory:' });
      const code = await new Promise<number | null>((r) => serve.child.once('exit', (c) => r(c)));
      expect(code).toBe(2);
      expect(serve.output().trim()).toBe(
        `cartwright: 127.0.0.1:${port} is already in use: stop the other process or set PORT to a free port`,
      );
    } finally {
      blocker.close();
    }
  }, 60_000);

  test('COMMERCE_SEED=demo says what it did, and why it did nothing on a store with products', async () => {
    const db = join(dir, 'seeded.db');
    for (const expected of ['demo catalog loaded', 'the store already has products; nothing loaded']) {
      const serve = startServe({ PORT: '0', HOST: '127.0.0.1', DATABASE_URL: db, COMMERCE_SEED: 'demo' });
      await serve.waitFor(/listening on/);
      expect(serve.output()).toContain(`COMMERCE_SEED=demo: ${expected}`);
      serve.child.kill('SIGTERM');
      expect(await new Promise((r) => serve.child.once('exit', (c) => r(c)))).toBe(0);
    }
  }, 60_000);

  test('a bad PORT is a configuration error with exit code 2', async () => {
    const serve = startServe({ PORT: 'abc', DATABASE_URL: ':memory:' });
    const code = await new Promise<number | null>((r) => serve.child.once('exit', (c) => r(c)));
    expect(code).toBe(2);
    expect(serve.output()).toMatch(/PORT must be a port number/);
  }, 30_000);
});
