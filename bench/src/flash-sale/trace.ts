import { nodeCrypto, openStorage } from '@cartwright/cli';
import { createEngine } from '@cartwright/core';
import { engineInternals } from '@cartwright/core/internal';
import { createApiHandler } from '@cartwright/http';
import { seedFixture } from '../fixture/seed';
import { inProcessClient, type Send } from './client';
import { type LoggedStatement, startStatementLog, stopStatementLog } from './statement-log';
import { checkoutAll, inventoryOfVariant, prepareCarts, type SaleStore, setStock } from './store';
import {
  postgresWriteProbe,
  sqliteFileWriteProbe,
  type WriteEvidence,
  type WriteProbe,
} from './write-evidence';

/** The statements of sold-out checkouts, sent by an engine in this process. */
export interface RefusalTrace {
  refusals: number;
  statements_per_refusal: number;
  /** Statements that write or lock rows (INSERT/UPDATE/DELETE, SELECT … FOR UPDATE/SHARE). */
  writes: LoggedStatement[];
  statements: LoggedStatement[];
  /** Codes of the traced checkouts (all `insufficient_inventory` expected). */
  codes: Record<string, number>;
  /** The database's own counters around the traced refusals (PostgreSQL, SQLite file). */
  counters: WriteEvidence | null;
}

const WRITE = /^\s*(insert|update|delete|replace)\b|\bfor (no key )?update\b|\bfor (key )?share\b/i;

/** The same rate limits as the server under test (server-process.ts): counted, never spent. */
const RATE_LIMITS = {
  secret_key: { limit: 1_000_000_000, window_seconds: 1 },
  publishable_key: { limit: 1_000_000_000, window_seconds: 1 },
};

async function traceOn(
  send: Send,
  store: SaleStore,
  cartIds: string[],
  probe: WriteProbe | null = null,
): Promise<RefusalTrace> {
  // One untraced refusal first: the first call of a process fills caches (keys, store settings).
  const [first, ...rest] = cartIds;
  if (first) await checkoutAll(send, store, [first], 1);
  await probe?.start();
  await startStatementLog();
  const { replies } = await checkoutAll(send, store, rest, 1);
  const log = stopStatementLog();
  const counters = (await probe?.stop()) ?? null;
  const codes: Record<string, number> = {};
  for (const reply of replies) {
    const key = `${reply.status} ${reply.code ?? ''}`.trim();
    codes[key] = (codes[key] ?? 0) + 1;
  }
  return {
    refusals: rest.length,
    statements_per_refusal: log.total / Math.max(1, rest.length),
    writes: log.statements.filter((s) => WRITE.test(s.sql)),
    statements: log.statements,
    codes,
    counters,
  };
}

/**
 * On the target's database (a SQLite file or PostgreSQL, the server idle): an engine in this
 * process checks out `cartIds` — fresh carts on the sold-out variant — one at a time, with every
 * statement logged.
 */
export async function traceRefusals(
  databaseUrl: string,
  store: SaleStore,
  cartIds: string[],
): Promise<RefusalTrace> {
  const engine = await createEngine({
    storage: await openStorage(databaseUrl),
    crypto: nodeCrypto,
    rateLimits: RATE_LIMITS,
  });
  const probe = /^postgres(ql)?:\/\//i.test(databaseUrl)
    ? await postgresWriteProbe(databaseUrl)
    : sqliteFileWriteProbe(databaseUrl);
  try {
    return await traceOn(inProcessClient(createApiHandler(engine)), store, cartIds, probe);
  } finally {
    await probe.close();
    await engine.close();
  }
}

/**
 * An in-memory SQLite database lives in the server process alone: the same sale is set up again
 * on a fresh in-memory engine in this process (1 unit, sold to a first buyer), then `refusals`
 * fresh carts check out and are traced.
 */
export async function traceRefusalsInMemory(refusals: number): Promise<RefusalTrace> {
  const engine = engineInternals(
    await createEngine({
      storage: await openStorage(':memory:'),
      crypto: nodeCrypto,
      rateLimits: RATE_LIMITS,
    }),
  );
  try {
    const fixture = await seedFixture(engine, { products: 3 });
    const send = inProcessClient(createApiHandler(engine));
    const variant = fixture.variantIds[0] as string;
    const record = await inventoryOfVariant(send, fixture, variant);
    await setStock(send, fixture, record.id, 1);
    const carts = await prepareCarts(send, fixture, variant, refusals + 2, 1);
    const sold = await checkoutAll(send, fixture, carts.slice(0, 1), 1);
    if (sold.replies[0]?.status !== 201)
      throw new Error(`the one unit did not sell: ${JSON.stringify(sold)}`);
    return await traceOn(send, fixture, carts.slice(1));
  } finally {
    await engine.close();
  }
}
