/**
 * A webhook worker as its own OS process, for the cross-process concurrency test:
 * `node --conditions=@cartwright/source --import tsx delivery-worker-process.ts <sqlite file> <worker id> <now ms>`.
 * Delivers until the queue stays empty, then prints its tally as JSON.
 */
import { createEngine } from '@cartwright/core';
import { sqliteStorage } from '@cartwright/storage-kysely/sqlite';
import { createNodeWebhookTransport } from '../../src/node-webhook-transport';

const [file = '', workerId = 'worker', nowText = '0'] = process.argv.slice(2);
const now = Number(nowText);
const engine = await createEngine({
  storage: sqliteStorage({ filename: file, busyTimeoutMs: 30_000 }),
  clock: { now: () => now },
  webhookTransport: createNodeWebhookTransport({ allowPrivate: true }),
  config: { allow_private_webhooks: true },
  migrate: false,
});
const tally = { claimed: 0, succeeded: 0, lost: 0 };
let idle = 0;
while (idle < 20) {
  const result = await engine.webhooks.deliverDue({ workerId, limit: 50 });
  tally.claimed += result.claimed;
  tally.succeeded += result.succeeded;
  tally.lost += result.lost;
  if (result.claimed === 0 && result.dispatched === 0) {
    idle += 1;
    await new Promise((resolve) => setTimeout(resolve, 10));
  } else idle = 0;
}
await engine.close();
process.stdout.write(JSON.stringify(tally));
