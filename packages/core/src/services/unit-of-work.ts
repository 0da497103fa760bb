import type { EventRecord, Json, JsonObject, Repositories, Scope } from '../ports/storage';
import type { ServiceContext } from './context';

/** One use case's transaction: repositories plus the events it raises (the outbox). */
export interface Work {
  readonly tx: Repositories;
  /** The use case's time, read once so every row it writes agrees. */
  readonly now: number;
  /** Queue an event; it is written to the outbox in this transaction and published after commit. */
  emit(scope: Scope, type: string, data: unknown): void;
}

/**
 * Runs one use case as one transaction (architecture habit 2). Events raised with `emit` are
 * appended to the outbox in the same transaction, so an event exists exactly when its change
 * committed; in-process subscribers hear of them only after the commit.
 */
export async function write<T>(ctx: ServiceContext, fn: (work: Work) => Promise<T>): Promise<T> {
  let emitted: EventRecord[] = [];
  const now = ctx.clock.now();
  const result = await ctx.storage.transaction(async (tx) => {
    emitted = [];
    const work: Work = {
      tx,
      now,
      emit(scope, type, data) {
        emitted.push({
          id: ctx.ids.next('evt'),
          store_id: scope.store_id,
          mode: scope.mode,
          type,
          data: toJsonObject(data),
          created_at: now,
        });
      },
    };
    const value = await fn(work);
    if (emitted.length > 0) await tx.events.append(emitted);
    return value;
  });
  if (emitted.length > 0) ctx.events.publish(emitted);
  return result;
}

/** Reads without a transaction. */
export function read<T>(ctx: ServiceContext, fn: (tx: Repositories) => Promise<T>): Promise<T> {
  return ctx.storage.read(fn);
}

/**
 * Event data are wire objects: plain JSON already (ISO strings, numbers, nested objects), so
 * they are kept as they are — not copied through a JSON round trip on every write. The outbox
 * row is their JSON text (keys holding `undefined` are dropped there, as in any response), and
 * in-process listeners, called right after the commit, get the same object: use cases build a
 * fresh wire object for each event and do not change it after `emit`.
 */
function toJsonObject(data: unknown): JsonObject {
  return (data ?? {}) as { [key: string]: Json };
}
