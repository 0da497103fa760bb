import { createEngine, type Engine } from '@cartwright/core';
import { sqliteStorage } from '@cartwright/storage-kysely/sqlite';

/** The keys this example registers on start, for local development and its tests. Never ship them. */
export const SECRET_KEY = 'sk_test_example_secret_key_0000000000001';
export const PUBLISHABLE_KEY = 'pk_test_example_publishable_key_00000001';

export interface ShopOptions {
  /** SQLite database: `:memory:` (default) or a file path to keep the data between runs. */
  filename?: string;
}

/**
 * The engine: SQLite through `sqliteStorage` (migrated when the engine starts), the store created
 * on first use, and the two example keys registered (idempotent, so a file database keeps them).
 * Passwords are hashed with the engine's default scrypt parameters (`passwordHashing` changes them).
 */
export async function createShopEngine(options: ShopOptions = {}): Promise<Engine> {
  const engine = await createEngine({ storage: sqliteStorage({ filename: options.filename ?? ':memory:' }) });
  const { store_id } = await engine.scopeFor('test');
  await engine.apiKeys.register(store_id, SECRET_KEY, 'example secret key');
  await engine.apiKeys.register(store_id, PUBLISHABLE_KEY, 'example publishable key');
  return engine;
}
