import { request as httpRequest } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { createProduct } from './support/catalog-fixtures';
import { describeApi } from './support/harness';

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: Buffer;
}

/** One request with node:http, which (unlike fetch) leaves the bytes as they were sent. */
function raw(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

describeApi('hostile clients: small errors, compressed responses', (api) => {
  it('a body of 90,000 unknown keys → 400 parameter_unknown with 20 details, the count of the rest, a small body', async () => {
    const body: Record<string, unknown> = {};
    for (let i = 0; i < 90_000; i++) body[`k${i}`] = 1;
    const res = await raw(
      `${api().baseUrl}/v1/storefront/carts`,
      'POST',
      { authorization: `Bearer ${api().keys.publishable}`, 'content-type': 'application/json' },
      JSON.stringify(body),
    );
    expect(res.status).toBe(400);
    expect(res.bytes.length).toBeLessThan(4_000);
    const error = JSON.parse(res.bytes.toString()).error;
    expect(error.code).toBe('parameter_unknown');
    expect(error.param).toBe('k0');
    expect(error.details).toHaveLength(20);
    expect(error.message).toBe('Received unknown parameter: k0 (and 89980 more problems not listed)');
  });

  it('JSON over 1 KB is compressed (br, gzip) when accepted, with Vary: Accept-Encoding; HEAD and small answers too', async () => {
    for (let i = 0; i < 4; i++)
      await createProduct(api(), { name: `Compressed product ${i} ${'x'.repeat(100)}` });
    const url = `${api().baseUrl}/v1/admin/products?limit=100`;
    const auth = { authorization: `Bearer ${api().keys.secret}` };
    const plain = await raw(url, 'GET', auth);
    expect(plain.status).toBe(200);
    expect(plain.bytes.length).toBeGreaterThan(1024);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toContain('Accept-Encoding');
    const text = plain.bytes.toString();

    const gzip = await raw(url, 'GET', { ...auth, 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers.vary).toContain('Accept-Encoding');
    expect(Number(gzip.headers['content-length'])).toBe(gzip.bytes.length);
    expect(gzip.bytes.length).toBeLessThan(plain.bytes.length);
    expect(JSON.parse(gunzipSync(gzip.bytes).toString())).toEqual(JSON.parse(text));

    const br = await raw(url, 'GET', { ...auth, 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(br.bytes).toString())).toEqual(JSON.parse(text));

    const head = await raw(url, 'HEAD', { ...auth, 'accept-encoding': 'gzip' });
    expect(head.status).toBe(200);
    expect(head.bytes.length).toBe(0);
    expect(head.headers['content-encoding']).toBe('gzip');

    const small = await raw(`${api().baseUrl}/v1/admin/products/prod_missing`, 'GET', {
      ...auth,
      'accept-encoding': 'gzip, br',
    });
    expect(small.status).toBe(404);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.bytes.toString()).error.code).toBe('not_found');
  });

  it('an idempotent replay of a large answer is compressed for its own request, plain for a client that does not accept it', async () => {
    const body = JSON.stringify({
      name: 'Replayed product',
      slug: `replayed-${Date.now()}`,
      status: 'active',
      type: 'physical',
      description: 'd'.repeat(1500),
      variants: [{ sku: `RPL-${Date.now()}`, price: 1000 }],
    });
    const headers = {
      authorization: `Bearer ${api().keys.secret}`,
      'content-type': 'application/json',
      'idempotency-key': `compress-${Date.now()}`,
    };
    const first = await raw(
      `${api().baseUrl}/v1/admin/products`,
      'POST',
      { ...headers, 'accept-encoding': 'gzip' },
      body,
    );
    expect(first.status).toBe(200);
    expect(first.headers['content-encoding']).toBe('gzip');
    const replay = await raw(`${api().baseUrl}/v1/admin/products`, 'POST', headers, body);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(replay.bytes.toString())).toEqual(JSON.parse(gunzipSync(first.bytes).toString()));
    const again = await raw(
      `${api().baseUrl}/v1/admin/products`,
      'POST',
      { ...headers, 'accept-encoding': 'br' },
      body,
    );
    expect(again.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(again.bytes).toString())).toEqual(
      JSON.parse(replay.bytes.toString()),
    );
  });
});
