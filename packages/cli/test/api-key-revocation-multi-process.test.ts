import { describe, expect, test } from 'vitest';
import { call, DATABASE_TARGETS, type ServeProcess, useServers } from './support/serve-process';

/**
 * Revoking or rotating an API key takes effect at once in every process (docs/contract.md#key-revocation): two `cartwright serve` processes share one database — a SQLite file, or PostgreSQL;
 * a key revoked or rotated through process A is refused by process B for the very next request,
 * a write as well as a read, and a rotated key keeps its id (docs/contract.md#api-keys).
 */
const SECRET = 'sk_test_revocationMultiProcess0000000001';

let emails = 0;
/** A write (a new customer) and a read (the store) with `key` on `server`. */
async function writeAndRead(server: ServeProcess, key: string) {
  const write = await call(server, 'POST', '/v1/admin/customers', key, {
    email: `revocation${++emails}-${Date.now()}@example.com`,
  });
  const read = await call(server, 'GET', '/v1/admin/store', key);
  return [write, read];
}

for (const target of DATABASE_TARGETS) {
  describe(`API key revocation across 2 server processes on one ${target} database`, () => {
    // The first process migrates and creates the store; the second starts on the ready schema.
    const { servers } = useServers(target, 2, { COMMERCE_API_KEYS: SECRET }, 'cartwright-keys-');

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
      const [a, b] = servers as [ServeProcess, ServeProcess];
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
      const [a, b] = servers as [ServeProcess, ServeProcess];
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
