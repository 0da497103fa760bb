import { createEngine, type Engine } from '@cartwright/core';
import { type CartwrightHandler, createApiHandler } from '@cartwright/http';
import { sqliteStorage } from '@cartwright/storage-kysely/sqlite';
import { giftCardProvider } from './gift-card';

/** The keys this example registers on start, for its tests. Never ship them. */
export const SECRET_KEY = 'sk_test_example_secret_key_0000000000001';
export const PUBLISHABLE_KEY = 'pk_test_example_publishable_key_00000001';

export interface Shop {
  engine: Engine;
  /** The whole `/v1` API as a fetch handler (`Request → Response`). */
  handler: CartwrightHandler;
  /** The gift cards' balances, by code. */
  balances: Map<string, number>;
}

/**
 * An engine on SQLite in memory with the gift card provider registered beside `manual`, the two
 * example keys, and the HTTP API over it.
 */
export async function createShop(giftCards: Record<string, number> = {}): Promise<Shop> {
  const balances = new Map(Object.entries(giftCards));
  const engine = await createEngine({
    storage: sqliteStorage({ filename: ':memory:' }),
    payments: [giftCardProvider(balances)],
  });
  const { store_id } = await engine.scopeFor('test');
  await engine.apiKeys.register(store_id, SECRET_KEY, 'example secret key');
  await engine.apiKeys.register(store_id, PUBLISHABLE_KEY, 'example publishable key');
  return { engine, handler: createApiHandler(engine), balances };
}
