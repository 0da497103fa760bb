import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEngine } from '@cartwright/core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createNodeListener } from '../../src/adapters/node';
import { createApiHandler } from '../../src/api';
import { describeApi } from './support/harness';
import { expectStatus } from './support/order-fixtures';

/**
 * docs/contract.md#api-keys, #key-revocation: a rotated key keeps its id; revoking or rotating a key takes
 * effect at once in every engine sharing the database. "Engine B" is a second engine over the
 * same storage with its own caches and its own HTTP server — another process in miniature (the
 * CLI test `api-key-revocation-multi-process.test.ts` runs real processes).
 */
describeApi('API key revocation and rotation across engines (issue 19)', (api) => {
  let closeB: (() => Promise<void>) | undefined;
  let baseB = '';

  beforeAll(async () => {
    const engineB = await createEngine({ storage: api().engine.storage, migrate: false });
    const server = createServer(createNodeListener(createApiHandler(engineB, { apiLogs: 'off' })));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseB = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    closeB = () => new Promise<void>((resolve) => server.close(() => resolve()));
  });
  afterAll(async () => {
    await closeB?.();
  });

  /** A request to engine B with `key`. */
  const onB = async (key: string, method: 'GET' | 'POST', path: string, body?: unknown) => {
    const res = await fetch(baseB + path, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as { error?: { code: string } } };
  };
  const write = (key: string) =>
    onB(key, 'POST', '/v1/admin/customers', { email: `k${Date.now()}${Math.random()}@example.com` });
  const read = (key: string) => onB(key, 'GET', '/v1/admin/store');

  const newKey = async () =>
    expectStatus(
      await api().post('/v1/admin/api-keys', { name: 'ops', key_type: 'secret', mode: 'test' }),
      200,
    ).body as { id: string; key: string; key_prefix: string };

  test('a key in use on engine B, revoked through engine A: B refuses its next write and read (401 invalid_api_key)', async () => {
    const created = await newKey();
    expect((await write(created.key)).status).toBe(200);
    expect((await read(created.key)).status).toBe(200);
    expectStatus(await api().delete(`/v1/admin/api-keys/${created.id}`), 200);
    const w = await write(created.key);
    expect(w.status).toBe(401);
    expect(w.body.error?.code).toBe('invalid_api_key');
    const r = await read(created.key);
    expect(r.status).toBe(401);
    expect(r.body.error?.code).toBe('invalid_api_key');
  });

  test('rotated through engine A: same id, a new secret shown once; the old one is refused on B at once, the new one works on B', async () => {
    const created = await newKey();
    expect((await write(created.key)).status).toBe(200);
    expect((await read(created.key)).status).toBe(200);
    const rotated = expectStatus(await api().post(`/v1/admin/api-keys/${created.id}/rotate`), 200).body;
    expect(rotated.id).toBe(created.id);
    expect(rotated.key).toMatch(/^sk_test_/);
    expect(rotated.key).not.toBe(created.key);
    expect(rotated.key_prefix).toBe(rotated.key.slice(0, 12));
    for (const res of [await write(created.key), await read(created.key)]) {
      expect(res.status).toBe(401);
      expect(res.body.error?.code).toBe('invalid_api_key');
    }
    expect((await write(rotated.key)).status).toBe(200);
    expect((await read(rotated.key)).status).toBe(200);
    // The record under the same id shows the new prefix, never the secret.
    const listed = expectStatus(await api().get('/v1/admin/api-keys?limit=100'), 200).body.data as Array<{
      id: string;
    }>;
    const records = listed.filter((k) => k.id === created.id);
    expect(records).toEqual([expect.objectContaining({ key_prefix: rotated.key_prefix, name: 'ops' })]);
    expect(JSON.stringify(listed)).not.toContain(rotated.key);
    // Rotating again retires the second secret the same way.
    const again = expectStatus(await api().post(`/v1/admin/api-keys/${created.id}/rotate`), 200).body;
    expect(again.id).toBe(created.id);
    expect((await read(rotated.key)).status).toBe(401);
    expect((await read(again.key)).status).toBe(200);
  });

  test('a key engine C remembers (taken at its word), revoked through A meanwhile: its next write is refused by its first statement — 401, nothing written, the Idempotency-Key not spent', async () => {
    const engineC = await createEngine({
      storage: api().engine.storage,
      migrate: false,
      config: { api_key_cache_ms: 600_000 },
    });
    const onC = createApiHandler(engineC, { apiLogs: 'off' });
    const post = (key: string, email: string, headers: Record<string, string> = {}) =>
      onC(
        new Request('http://127.0.0.1/v1/admin/customers', {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
          body: JSON.stringify({ email }),
        }),
      );
    const created = await newKey();
    const stamp = `${Date.now()}${Math.random()}`;
    expect((await post(created.key, `before.${stamp}@example.com`)).status).toBe(200);
    // The search finds what was written (so an empty answer below means nothing was).
    const before = expectStatus(
      await api().get(`/v1/admin/customers?q=${encodeURIComponent(`before.${stamp}@example.com`)}`),
      200,
    ).body as { data: unknown[] };
    expect(before.data).toHaveLength(1);
    expectStatus(await api().delete(`/v1/admin/api-keys/${created.id}`), 200);
    for (const headers of [{}, { 'idempotency-key': `after-revoke-${stamp}` }]) {
      const email = `after.${stamp}.${Object.keys(headers).length}@example.com`;
      const refused = await post(created.key, email, headers);
      expect(refused.status).toBe(401);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('invalid_api_key');
      const found = expectStatus(await api().get(`/v1/admin/customers?q=${encodeURIComponent(email)}`), 200)
        .body as { data: unknown[] };
      expect(found.data).toEqual([]);
    }
    // The same Idempotency-Key with a usable key runs afresh (nothing was stored under it).
    const other = await newKey();
    const fresh = await post(other.key, `fresh.${stamp}@example.com`, {
      'idempotency-key': `after-revoke-${stamp}`,
    });
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('idempotent-replayed')).toBeNull();
  });

  test('GET /v1/admin/api-keys/{id} answers the record without its secret (the operation added through the table)', async () => {
    const created = await newKey();
    const got = expectStatus(await api().get(`/v1/admin/api-keys/${created.id}`), 200).body;
    expect(got).toEqual(
      expect.objectContaining({ id: created.id, name: 'ops', key_prefix: created.key.slice(0, 12) }),
    );
    expect(JSON.stringify(got)).not.toContain(created.key);
    expect((await api().get('/v1/admin/api-keys/key_doesnotexist')).status).toBe(404);
  });

  test('rotating a revoked or unknown key → 404 not_found', async () => {
    const created = await newKey();
    expectStatus(await api().delete(`/v1/admin/api-keys/${created.id}`), 200);
    expect((await api().post(`/v1/admin/api-keys/${created.id}/rotate`)).status).toBe(404);
    expect((await api().post('/v1/admin/api-keys/key_doesnotexist/rotate')).status).toBe(404);
    expect((await read(created.key)).status).toBe(401);
  });

  test('a revoked key is gone: left out of GET /v1/admin/api-keys (total_count too, every page), GET by id and DELETE again → 404 not_found', async () => {
    const listed = async () =>
      expectStatus(await api().get('/v1/admin/api-keys?limit=100'), 200).body as {
        data: { id: string }[];
        total_count: number;
      };
    const kept = await newKey();
    const revoked = await newKey();
    const before = await listed();
    expect(before.data.map((k) => k.id)).toEqual(expect.arrayContaining([kept.id, revoked.id]));
    expectStatus(await api().delete(`/v1/admin/api-keys/${revoked.id}`), 200);
    const after = await listed();
    expect(after.data.map((k) => k.id)).toContain(kept.id);
    expect(after.data.map((k) => k.id)).not.toContain(revoked.id);
    expect(after.total_count).toBe(before.total_count - 1);
    // Paged one by one, the revoked key never shows either.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = expectStatus(
        await api().get(`/v1/admin/api-keys?limit=1${cursor ? `&starting_after=${cursor}` : ''}`),
        200,
      ).body as { data: { id: string }[]; has_more: boolean; next_cursor: string | null };
      seen.push(...page.data.map((k) => k.id));
      cursor = page.has_more ? page.next_cursor : null;
    } while (cursor !== null);
    expect(seen.sort()).toEqual(after.data.map((k) => k.id).sort());
    for (const res of [
      await api().get(`/v1/admin/api-keys/${revoked.id}`),
      await api().delete(`/v1/admin/api-keys/${revoked.id}`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({
        code: 'not_found',
        message: `No such API key: '${revoked.id}'`,
      });
    }
    expectStatus(await api().get(`/v1/admin/api-keys/${kept.id}`), 200);
  });
});
