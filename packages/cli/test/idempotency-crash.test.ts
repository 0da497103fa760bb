import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import {
  type CallResponse,
  call,
  crash,
  DATABASE_TARGETS,
  freshDatabaseUrl,
  type ServeProcess,
  startServe,
  stop,
} from './support/serve-process';

/**
 * Idempotency survives `kill -9` (docs/contract.md#idempotency): a burst of keyed
 * `POST /v1/admin/orders` (status `pending`, so each reserves stock) is cut by SIGKILL of the
 * server, several times; after a restart every key is retried. Each key must yield exactly one
 * order — a retry answers the stored response (`Idempotent-Replayed`) when the effect committed,
 * or makes the order now (201) when it never did, never a second order — and the reserved stock
 * must equal the ordered units. The response is stored in the transaction of the order, so there
 * is no moment at which one exists without the other.
 *
 * The retries run once, after the last crash: a request that held its key when the server died
 * leaves an in-progress claim that blocks the key until its lock (30 s) expires, after which the
 * retry takes it over. One wait for all rounds keeps the test near 45 s per engine.
 */
const SECRET = 'sk_test_idempotencyCrash0000000000000001';
const KEYS = `${SECRET},pk_test_idempotencyCrash000000000000001`;
const ROUNDS = 3;
const BURST = 30;

interface Sent {
  key: string;
  email: string;
  quantity: number;
  /** The answer the client got before the crash, if any. */
  before: CallResponse | null;
}

for (const target of DATABASE_TARGETS) {
  describe(`kill -9 during keyed order creation on ${target}`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'cartwright-idem-crash-'));
    let server: ServeProcess | undefined;

    afterAll(async () => {
      if (server) await stop(server);
      rmSync(dir, { recursive: true, force: true });
    });

    test(`${ROUNDS} crashes mid-burst of ${BURST} keyed orders; every key retried after restart makes exactly one order`, async () => {
      const databaseUrl = await freshDatabaseUrl(target, dir);
      const env = { COMMERCE_API_KEYS: KEYS, COMMERCE_RECONCILE_INTERVAL_MS: '0' };
      server = await startServe(databaseUrl, env);
      const product = await call(server, 'POST', '/v1/admin/products', SECRET, {
        name: 'Crash-tested',
        status: 'active',
        variants: [{ sku: `CRASH-${target}`, price: 1500, inventory: { on_hand: 100_000 } }],
      });
      expect(product.status).toBe(200);
      const variant = product.body.variants[0];

      const sent: Sent[] = [];
      let answeredBeforeCrash = 0;
      let cutByCrash = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const live = server;
        const burst = Array.from({ length: BURST }, (_, i) => {
          const entry: Sent = {
            key: `crash-${target}-${round}-${i}`,
            email: `r${round}.k${i}@crash.example`,
            quantity: 1 + (i % 3),
            before: null,
          };
          sent.push(entry);
          return call(
            live,
            'POST',
            '/v1/admin/orders',
            SECRET,
            {
              email: entry.email,
              status: 'pending',
              lines: [{ variant_id: variant.id, quantity: entry.quantity }],
            },
            { 'idempotency-key': entry.key },
          ).then(
            (response) => {
              entry.before = response;
            },
            () => undefined, // the connection died with the server
          );
        });
        // Kill once the server is well into the burst: a few answered, most still running (a
        // different moment each round).
        const deadline = Date.now() + 5_000;
        while (sent.filter((s) => s.before !== null).length < 1 + round * 3 && Date.now() < deadline) {
          await new Promise((r) => setImmediate(r));
        }
        if (round > 0) await new Promise((r) => setTimeout(r, round * 5));
        await crash(live);
        await Promise.all(burst);
        const inRound = sent.slice(-BURST);
        answeredBeforeCrash += inRound.filter((s) => s.before !== null).length;
        cutByCrash += inRound.filter((s) => s.before === null).length;
        for (const s of inRound) if (s.before !== null) expect(s.before.status, s.key).toBe(201);
        server = await startServe(databaseUrl, env);
      }
      // The crashes must have cut requests, or the test proves nothing.
      expect(cutByCrash).toBeGreaterThan(0);

      const live = server;
      // How many cut requests had committed their order (the window the replay record must cover).
      const committedBeforeRetry = (
        await Promise.all(
          sent
            .filter((s) => s.before === null)
            .map((s) =>
              call(live, 'GET', `/v1/admin/orders?email=${encodeURIComponent(s.email)}&limit=10`, SECRET),
            ),
        )
      ).filter((r) => r.body.data.length > 0).length;
      const retries = await Promise.all(
        sent.map((s) =>
          call(
            live,
            'POST',
            '/v1/admin/orders',
            SECRET,
            { email: s.email, status: 'pending', lines: [{ variant_id: variant.id, quantity: s.quantity }] },
            { 'idempotency-key': s.key },
          ),
        ),
      );
      let replayed = 0;
      for (const [i, s] of sent.entries()) {
        const retry = retries[i]!;
        expect(retry.status, `${s.key}: ${JSON.stringify(retry.body)}`).toBe(201);
        if (retry.headers.get('idempotent-replayed') === 'true') replayed++;
        if (s.before !== null) {
          // Answered before the crash: the retry is the replay of that very response.
          expect(retry.headers.get('idempotent-replayed'), s.key).toBe('true');
          expect(retry.body, s.key).toEqual(s.before.body);
        }
      }
      // Every key made exactly one order, the one its retry answers.
      const orders = await Promise.all(
        sent.map((s) =>
          call(live, 'GET', `/v1/admin/orders?email=${encodeURIComponent(s.email)}&limit=10`, SECRET),
        ),
      );
      for (const [i, s] of sent.entries()) {
        const ids = orders[i]!.body.data.map((o: { id: string }) => o.id);
        expect(ids, s.key).toEqual([retries[i]!.body.id]);
      }
      const stock = await call(live, 'GET', `/v1/admin/inventory/${variant.inventory.id}`, SECRET);
      expect(stock.body.reserved).toBe(sent.reduce((sum, s) => sum + s.quantity, 0));
      // Keys cut by a crash after their order committed were replayed, not made again.
      expect(replayed).toBe(answeredBeforeCrash + committedBeforeRetry);
      console.log(
        `${target}: ${sent.length} keys, ${answeredBeforeCrash} answered before a crash, ${cutByCrash} cut ` +
          `(${committedBeforeRetry} of them committed, answer lost); ` +
          `retries: ${replayed} replayed, ${sent.length - replayed} made now`,
      );
    }, 150_000);
  });
}
