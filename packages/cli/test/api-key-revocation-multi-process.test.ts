import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createTestDatabase } from '@cartwright/storage-conformance/postgres-server';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';

/**
 * Revoking or rotating an API key takes effect at once in every process (decisions §15,
 * issue 19): two `cartwright serve` processes share one database — a SQLite file, or PostgreSQL;
 * a key revoked or rotated through process A is refused by process B for the very next request,
 * a write as well as a read, and a rotated key keeps its id (decisions §8).
 */
const CLI_DIR = resolve(import.meta.dirname, '..');
const SECRET = 'sk_test_revocationMultiProcess0000000001';

interface Server {
  child: ChildProcess;
  url: string;
}

function startServe(databaseUrl: string): Promise<Server> {
  const child = spawn(
    process.execPath,
    ['--conditions=@cartwright/source', '--import', 'tsx', 'src/bin.ts', 'serve', '--no-worker'],
    {
      cwd: CLI_DIR,
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: databaseUrl,
        COMMERCE_API_KEYS: SECRET,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not start:\n${out}`));
    }, 60_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = out.match(/listening on (http:\/\/\S+)/);
      if (match?.[1]) {
        clearTimeout(timer);
        resolvePromise({ child, url: match[1] });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}:\n${out}`)));
  });
}

async function call(server: Server, method: string, path: string, key: string, body?: unknown) {
  const res = await fetch(server.url + path, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies checked field by field.
  return { status: res.status, body: (await res.json()) as any };
}

let emails = 0;
/** A write (a new customer) and a read (the store) with `key` on `server`. */
async function writeAndRead(server: Server, key: string) {
  const write = await call(server, 'POST', '/v1/admin/customers', key, {
    email: `revocation${++emails}-${Date.now()}@example.com`,
  });
  const read = await call(server, 'GET', '/v1/admin/store', key);
  return [write, read];
}

for (const target of ['sqlite', 'postgres'] as const) {
  describe(`API key revocation across 2 server processes on one ${target} database`, () => {
    const servers: Server[] = [];
    const dir = mkdtempSync(join(tmpdir(), 'cartwright-keys-'));

    beforeAll(async () => {
      let databaseUrl = join(dir, 'shop.db');
      if (target === 'postgres') {
        const serverUrl = inject('cartwrightPgUrl');
        if (!serverUrl) throw new Error(`PostgreSQL is not available: ${inject('cartwrightPgError')}`);
        databaseUrl = await createTestDatabase(serverUrl);
      }
      // The first process migrates and creates the store; the second starts on the ready schema.
      servers.push(await startServe(databaseUrl));
      servers.push(await startServe(databaseUrl));
    });

    afterAll(async () => {
      await Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((resolvePromise) => {
              if (server.child.exitCode !== null) return resolvePromise();
              server.child.once('exit', () => resolvePromise());
              server.child.kill('SIGTERM');
              setTimeout(() => server.child.kill('SIGKILL'), 10_000).unref();
            }),
        ),
      );
      rmSync(dir, { recursive: true, force: true });
    });

    const newKey = async () => {
      const created = await call(servers[0]!, 'POST', '/v1/admin/api-keys', SECRET, {
        name: 'ops',
        key_type: 'secret',
        mode: 'test',
      });
      expect(created.status).toBe(200);
      return created.body as { id: string; key: string };
    };

    test('revoked on process A: the next write and read with it on process B → 401 invalid_api_key', async () => {
      const [a, b] = servers as [Server, Server];
      const key = await newKey();
      // In use on B first, so B has seen it (and would have remembered it).
      for (const res of await writeAndRead(b, key.key)) expect(res.status).toBe(200);
      const revoked = await call(a, 'DELETE', `/v1/admin/api-keys/${key.id}`, SECRET);
      expect(revoked.body).toEqual({ id: key.id, deleted: true });
      for (const res of await writeAndRead(b, key.key)) {
        expect(res.status).toBe(401);
        expect(res.body.error.code).toBe('invalid_api_key');
      }
    });

    test('rotated on process A: same id; the old secret → 401 on B at once, the new one works on B', async () => {
      const [a, b] = servers as [Server, Server];
      const key = await newKey();
      for (const res of await writeAndRead(b, key.key)) expect(res.status).toBe(200);
      const rotated = await call(a, 'POST', `/v1/admin/api-keys/${key.id}/rotate`, SECRET);
      expect(rotated.status).toBe(200);
      expect(rotated.body.id).toBe(key.id);
      expect(rotated.body.key).not.toBe(key.key);
      for (const res of await writeAndRead(b, key.key)) {
        expect(res.status).toBe(401);
        expect(res.body.error.code).toBe('invalid_api_key');
      }
      for (const res of await writeAndRead(b, rotated.body.key)) expect(res.status).toBe(200);
      const listed = await call(b, 'GET', '/v1/admin/api-keys?limit=100', rotated.body.key);
      expect(listed.body.data.filter((k: { id: string }) => k.id === key.id)).toHaveLength(1);
    });
  });
}
