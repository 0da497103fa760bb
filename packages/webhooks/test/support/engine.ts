import { createEngine, type EngineOptions, type EventType, type Scope } from '@cartwright/core';
import { type EngineInternals as Engine, engineInternals, write } from '@cartwright/core/internal';
import type { Storage } from '@cartwright/core/storage';
import { sqliteStorage } from '@cartwright/storage-kysely/sqlite';
import { createNodeWebhookTransport } from '../../src/node-webhook-transport';
import { createFakeClock, type FakeClock } from './fake-clock';
import { freshPostgresDatabase } from './postgres';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

export type Backend = 'sqlite' | 'postgres';

async function openStorage(backend: Backend): Promise<Storage> {
  if (backend === 'sqlite') return sqliteStorage({ filename: ':memory:' });
  const { postgresStorage } = await import('@cartwright/storage-kysely/postgres');
  return postgresStorage({ connectionString: await freshPostgresDatabase(), max: 10 });
}

export interface TestEngine {
  engine: Engine;
  storage: Storage;
  clock: FakeClock;
  scope: Scope;
  liveScope: Scope;
  close(): Promise<void>;
}

/**
 * A real engine on in-memory SQLite with a fake clock and the real Node transport. Receivers run
 * on 127.0.0.1, so private targets are allowed unless the test says otherwise.
 */
export async function startEngine(
  options: Partial<Omit<EngineOptions, 'storage'>> & {
    storage?: Storage;
    clock?: FakeClock;
    /** Where a new storage lives: in-memory SQLite (default) or a fresh Postgres database. */
    backend?: Backend;
  } = {},
): Promise<TestEngine> {
  const { backend = 'sqlite', ...engineOptions } = options;
  const storage = options.storage ?? (await openStorage(backend));
  const clock = options.clock ?? createFakeClock();
  const engine = engineInternals(
    await createEngine({
      webhookTransport: createNodeWebhookTransport({ allowPrivate: true }),
      ...engineOptions,
      clock,
      storage,
      config: { allow_private_webhooks: true, ...options.config },
    }),
  );
  return {
    engine,
    storage,
    clock,
    scope: await engine.scopeFor('test'),
    liveScope: await engine.scopeFor('live'),
    close: () => engine.close(),
  };
}

/** Commits events through the outbox exactly as a use case does (one transaction). */
export async function emitEvents(
  engine: Engine,
  events: ReadonlyArray<{ scope: Scope; type: string; data: Record<string, unknown> }>,
): Promise<void> {
  await write(engine.context, null, async ({ emit }) => {
    // Test payloads, not wire objects: the typed emit is bypassed on purpose.
    for (const event of events) emit(event.scope, event.type as EventType, event.data as never);
  });
}

/** Id of the event a delivery body carries. */
export const eventIdOf = (body: string): string => (JSON.parse(body) as { id: string }).id;
