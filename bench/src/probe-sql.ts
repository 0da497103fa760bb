import { nodeCrypto, openStorage } from '@cartwright/cli';
import { createEngine } from '@cartwright/core';
import { engineInternals } from '@cartwright/core/internal';
import { createApiHandler } from '@cartwright/http';
import { createTestDatabase, startPostgres } from '@cartwright/storage-conformance/postgres-server';
import pg from 'pg';
import { CHECKOUT_BODY, SHIPPING_ADDRESS } from './fixture/carts';
import { seedFixture } from './fixture/seed';

const log: string[] = [];
let on = false;
const proto = pg.Client.prototype as any;
const q = proto.query;
proto.query = function (...args: any[]) {
  if (on) {
    const t = typeof args[0] === 'string' ? args[0] : args[0]?.text;
    log.push(String(t).replace(/\s+/g, ' ').slice(0, 400));
  }
  return q.apply(this, args);
};
const url = process.env.PGURL ?? (await createTestDatabase((await startPostgres()).url));
const storage = await openStorage(url);
const stats = () =>
  (storage as unknown as { stats?(): { statements: number; roundTrips: number } }).stats?.() ?? {
    statements: 0,
    roundTrips: 0,
  };
const engine = engineInternals(await createEngine({ storage, crypto: nodeCrypto }));
const fx = await seedFixture(engine, { products: 50 });
const h = createApiHandler(engine);
const headers = { authorization: `Bearer ${fx.publishableKey}`, 'content-type': 'application/json' };
let traffic = '';
async function call(method: string, path: string, body: unknown) {
  const before = stats();
  const r = await h(new Request('http://x' + path, { method, headers, body: JSON.stringify(body) }));
  const t = await r.text();
  const after = stats();
  // The adapter's own count (transactions and reads through the storage; the API-key lookup
  // included): statements and round trips.
  traffic = `statements ${after.statements - before.statements}, round trips ${after.roundTrips - before.roundTrips}`;
  return { status: r.status, body: t };
}
for (let round = 0; round < 2; round++) {
  on = round === 1;
  let r = await call('POST', '/v1/storefront/carts', {});
  const id = JSON.parse(r.body).id;
  if (on) {
    console.log('== create', r.status, log.length, traffic);
    for (const l of log.splice(0)) console.log('  ', l);
  }
  for (const [m, p, b] of [
    ['POST', `/v1/storefront/carts/${id}/items`, { variant_id: fx.variantIds[3], quantity: 1 }],
    ['POST', `/v1/storefront/carts/${id}/items`, { variant_id: fx.variantIds[7], quantity: 2 }],
    [
      'PATCH',
      `/v1/storefront/carts/${id}`,
      { shipping_address: SHIPPING_ADDRESS, shipping_method_id: fx.shippingMethodId },
    ],
    ['POST', `/v1/storefront/carts/${id}/checkout`, CHECKOUT_BODY],
  ] as Array<[string, string, unknown]>) {
    r = await call(m, p, b);
    if (on) {
      console.log('==', m, p.replace(id, '{id}'), r.status, log.length, traffic);
      for (const l of log.splice(0)) console.log('  ', l);
    }
  }
}
process.exit(0);
