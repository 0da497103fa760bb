import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine as createPublicEngine, type EngineOptions, type Scope } from '@cartwright/core';
import { type EngineInternals as Engine, engineInternals } from '@cartwright/core/internal';
import type { Storage } from '@cartwright/core/storage';
import { sqliteStorage } from '@cartwright/storage-kysely/sqlite';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { createNodeWebhookTransport } from '../src/node-webhook-transport';
import { emitEvents } from './support/engine';
import { createFakeClock } from './support/fake-clock';
import { freshPostgresDatabase, POSTGRES_IN_RUN, stopPostgres } from './support/postgres';
import { type Receiver, startReceiver } from './support/receiver';

/** The engine with its internals: these tests call the scope-first services. */
const createEngine = async (options: EngineOptions): Promise<Engine> =>
  engineInternals(await createPublicEngine(options));

const EVENTS = 1000;
vi.setConfig({ testTimeout: 180_000, hookTimeout: 120_000 });
const here = dirname(fileURLToPath(import.meta.url));
const tempDirs: string[] = [];
afterAll(async () => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  await stopPostgres();
}, 60_000);

interface Backend {
  name: 'sqlite' | 'postgres';
  /** A fresh database; each `connect()` opens one more connection (pool) to it. */
  open(): Promise<{ connect(): Promise<Storage>; file?: string }>;
}

const sqlite: Backend = {
  name: 'sqlite',
  async open() {
    const dir = mkdtempSync(join(tmpdir(), 'cartwright-webhooks-'));
    tempDirs.push(dir);
    const file = join(dir, 'commerce.db');
    return { file, connect: async () => sqliteStorage({ filename: file, busyTimeoutMs: 30_000 }) };
  },
};

const postgres: Backend = {
  name: 'postgres',
  async open() {
    const url = await freshPostgresDatabase();
    const { postgresStorage } = await import('@cartwright/storage-kysely/postgres');
    return { connect: async () => postgresStorage({ connectionString: url, max: 5 }) };
  },
};

const BACKENDS = POSTGRES_IN_RUN ? [sqlite, postgres] : [sqlite];

/** Commits EVENTS order.created events in batches of 100 and returns their ids. */
async function seed(engine: Engine, scope: Scope): Promise<void> {
  for (let batch = 0; batch < EVENTS / 100; batch++) {
    await emitEvents(
      engine,
      Array.from({ length: 100 }, (_, i) => ({
        scope,
        type: 'order.created',
        data: { id: `ord_${batch * 100 + i}`, number: 1001 + batch * 100 + i, status: 'pending' },
      })),
    );
  }
}

function countByEventId(receiver: Receiver): Map<string, number> {
  const counts = new Map<string, number>();
  for (const receipt of receiver.receipts) {
    const id = String(receipt.headers['x-webhook-id']);
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

async function expectAllDeliveredOnce(engine: Engine, scope: Scope, webhookId: string, receiver: Receiver) {
  const counts = countByEventId(receiver);
  expect(receiver.receipts).toHaveLength(EVENTS);
  expect(counts.size).toBe(EVENTS);
  expect([...counts.values()].every((n) => n === 1)).toBe(true);
  let cursor: string | undefined;
  let seen = 0;
  do {
    const page = await engine.webhooks.listDeliveries(scope, webhookId, {
      limit: 100,
      starting_after: cursor,
      sort: 'created_at',
      order: 'asc',
    });
    for (const delivery of page.data) {
      expect(delivery).toMatchObject({ status: 'succeeded', attempt: 1 });
      expect(delivery.attempts).toHaveLength(1);
    }
    seen += page.data.length;
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  expect(seen).toBe(EVENTS);
}

describe.each(BACKENDS)('concurrent workers on $name', (backend) => {
  test.each([2, 4])(
    '%i workers deliver 1,000 events exactly once each (receipts counted per event id)',
    async (workers) => {
      const { connect } = await backend.open();
      const clock = createFakeClock();
      const engines: Engine[] = [];
      for (let i = 0; i < workers; i++) {
        engines.push(
          await createEngine({
            storage: await connect(),
            clock,
            webhookTransport: createNodeWebhookTransport({ allowPrivate: true }),
            config: { allow_private_webhooks: true },
          }),
        );
      }
      const receiver = await startReceiver();
      try {
        const main = engines[0] as Engine;
        const scope = await main.scopeFor('test');
        const webhook = await main.webhooks.create(scope, {
          url: receiver.url,
          events: ['order.created'],
          is_active: true,
          metadata: {},
        });
        await seed(main, scope);

        const claimedBy = await Promise.all(
          engines.map(async (engine, i) => {
            let claimed = 0;
            let idle = 0;
            while (idle < 5) {
              const result = await engine.webhooks.deliverDue({ workerId: `worker-${i}`, limit: 20 });
              expect(result.lost).toBe(0);
              claimed += result.claimed;
              if (result.claimed === 0 && result.dispatched === 0) {
                idle += 1;
                await new Promise((r) => setTimeout(r, 5));
              } else idle = 0;
            }
            return claimed;
          }),
        );
        expect(claimedBy.reduce((a, b) => a + b, 0)).toBe(EVENTS);
        await expectAllDeliveredOnce(main, scope, webhook.id, receiver);
      } finally {
        await receiver.close();
        for (const engine of engines) await engine.close();
      }
    },
    120_000,
  );
});

describe('concurrent worker processes on one SQLite file', () => {
  test('2 processes deliver 1,000 events exactly once each', async () => {
    const { connect, file } = await sqlite.open();
    const storage = await connect();
    const clock = createFakeClock();
    const engine = await createEngine({
      storage,
      clock,
      webhookTransport: createNodeWebhookTransport({ allowPrivate: true }),
      config: { allow_private_webhooks: true },
    });
    const receiver = await startReceiver();
    try {
      const scope = await engine.scopeFor('test');
      const webhook = await engine.webhooks.create(scope, {
        url: receiver.url,
        events: ['*'],
        is_active: true,
        metadata: {},
      });
      await seed(engine, scope);
      const tallies = await Promise.all(
        [0, 1].map((i) => runWorkerProcess(file as string, `process-${i}`, clock.now())),
      );
      expect(tallies.reduce((sum, t) => sum + t.succeeded, 0)).toBe(EVENTS);
      expect(tallies.every((t) => t.lost === 0)).toBe(true);
      await expectAllDeliveredOnce(engine, scope, webhook.id, receiver);
    } finally {
      await receiver.close();
      await engine.close();
    }
  }, 180_000);
});

function runWorkerProcess(file: string, workerId: string, now: number) {
  const root = resolve(here, '../../..');
  return new Promise<{ claimed: number; succeeded: number; lost: number }>((resolvePromise, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--conditions=@cartwright/source',
        '--import',
        'tsx',
        join(here, 'support/delivery-worker-process.ts'),
        file,
        workerId,
        String(now),
      ],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code === 0) resolvePromise(JSON.parse(out));
      else reject(new Error(`worker ${workerId} exited ${code}:\n${err}\n${out}`));
    });
  });
}
