import type { EventDataMap } from '../events/event-data';
import type { EventType } from '../events/schemas';
import type {
  EventRecord,
  IdempotencyClaimRef,
  Json,
  JsonObject,
  OrderAggregate,
  Repositories,
  Scope,
} from '../ports/storage';
import type { ServiceContext } from './context';
import { idempotencyClaimTakenOver } from './errors';
import { replayOf } from './replay-secrets';

/** A finished response as the idempotency store keeps it: status and the exact body text. */
export interface StoredResponse {
  status: number;
  body: string;
}

/** How one of a request's transactions ended, as its caller will see it. */
export type RequestOutcome = { value: unknown } | { error: unknown };

/**
 * The claim of a request that carries an `Idempotency-Key` (docs/contract.md#idempotency), held by the
 * idempotency service while the request runs. Every `write` given the request's scope
 * ({@link RequestScope}) stores the response it leads to in its own transaction, as a
 * compare-and-set on the claim token, so an effect never commits without its replay record, and a
 * request whose claim was taken over commits nothing.
 */
export interface RequestClaim {
  readonly scope: Scope;
  readonly ref: IdempotencyClaimRef;
  /**
   * The response the request gives for an outcome (supplied by the HTTP pipeline: the route's
   * status and serialisation); null for an outcome that is not stored (a 5xx).
   */
  readonly render: (outcome: RequestOutcome) => StoredResponse | null;
  /** The response stored with the request's last effect, once one committed. */
  committed: StoredResponse | null;
  /**
   * The request's last effect committed without a response stored with it (its value could not
   * be rendered as the route's response and no `answer` said what it is): not crash-safe.
   */
  unanswered: boolean;
  /** False once the request has answered: writes of work it left behind are not its. */
  open: boolean;
  /**
   * A `write` of the request is running its use case: a `write` nested in it (given the same
   * scope) joins that transaction and stores nothing. A request's writes run one after another.
   */
  writing: boolean;
}

/**
 * What a request hands down to its use case besides the store and mode (architecture point 18:
 * context is passed, not ambient). Today: the claim on its `Idempotency-Key`, if it sent one.
 */
export interface RequestContext {
  readonly claim?: RequestClaim | undefined;
}

/**
 * A scope as a request passes it down: the store and mode, plus the request's context. The HTTP
 * pipeline (through the idempotency service) makes one per request and hands it to the operation,
 * which hands it to its service; services pass the scope they were given on to `write` unchanged
 * (never a fresh `{ store_id, mode }`, which would drop the context). A plain {@link Scope} is a
 * RequestScope without a request: writes outside a request (reconciliation, webhook deliveries,
 * event listeners) store no response.
 */
export interface RequestScope extends Scope {
  readonly request?: RequestContext | undefined;
}

/** The scope a request under `claim` passes down (see {@link RequestScope}). */
export function scopeUnderClaim(claim: RequestClaim): RequestScope {
  return { store_id: claim.scope.store_id, mode: claim.scope.mode, request: { claim } };
}

/** What a `write`'s `answer` returns for a transaction that is not the request's last. */
export const INTERIM: unique symbol = Symbol('interim');

export interface WriteOptions<T> {
  /**
   * This transaction is not the last of its request (e.g. a checkout's payment attempt, recorded
   * before the provider is asked): the request's response comes from a later one, so none is
   * stored here — the claim is only checked (and its lock extended).
   */
  interim?: boolean;
  /**
   * What the use case answers for this transaction's value, when that is not the value itself:
   * the wire object it returns, or the `CommerceError` it throws (throw it here), or
   * {@link INTERIM}. Stored as the request's idempotent response in this transaction.
   */
  answer?: (value: T) => unknown;
}

/** One use case's transaction: repositories plus the events it raises (the outbox). */
export interface Work {
  readonly tx: Repositories;
  /** The use case's time, read once so every row it writes agrees. */
  readonly now: number;
  /**
   * Queue an event; it is written to the outbox in this transaction and published after commit.
   * `data` must be the type's payload ({@link EventDataMap}), e.g. the Order for `order.created`.
   */
  emit<K extends EventType>(scope: Scope, type: K, data: EventDataMap[K]): void;
  /**
   * Leaves a write of this transaction in flight instead of awaiting it: for the LAST writes of a
   * use case, whose result nothing after needs (a set whose guard the caller's row lock already
   * holds, an item insert). It travels with COMMIT (PostgreSQL: in the same round trip), and the
   * storage awaits its statement before the transaction resolves: if it failed, the transaction
   * rolls back and rejects with its error (packages/core/src/ports/storage/README.md,
   * "Transactions"). A call that fails before sending anything (a thrown error) rolls the
   * transaction back too: `write` lets every such failure surface before it returns.
   *
   * Only for a call that starts ALL its statements when it is made — the port's insert and
   * one-statement writes (`carts.insert`, `carts.set`, `transition`, `insertItem`, `updateItem`,
   * `deleteItem`, `orders.insert`, `orders.insertNumbered`, `orders.insertPayment`, `events.append`: multi-statement
   * inserts start every statement at the call, storage-kysely's `insertRows`): a call that sent a
   * statement only after an earlier one answered would send it after COMMIT. A write whose result
   * decides something (a guarded update's `false`, a refusal, a claim's `held`) must be awaited
   * instead.
   */
  defer(write: Promise<unknown>): void;
  /**
   * An order of this transaction may be numbered at COMMIT ({@link numberAtCommit}): the storage
   * offers it (`orders.insertNumbered`), and the request's idempotent response, if this
   * transaction stores one, is stored with COMMIT too (`idempotency.completeAtCommit`), so that
   * its body gets the number in the same flight.
   */
  readonly numbersAtCommit: boolean;
  /**
   * Inserts a new order built with {@link ORDER_NUMBER_PLACEHOLDER} as its number under the next
   * number of its scope, taken in the COMMIT flight (`orders.insertNumbered`: offered by
   * PostgreSQL; check {@link numbersAtCommit} before building the order this way). The order goes with the transaction's outbox in one statement, the last
   * before COMMIT, where the events' placeholder becomes the number; `settle(number)` runs once
   * the transaction committed, before the events are published and the value is returned, to put
   * the number into the objects built with the placeholder. One per transaction.
   */
  numberAtCommit(order: OrderAggregate, settle: (number: number) => void): void;
}

/**
 * The order number an order carries while its real one is taken in the COMMIT flight
 * (`Work.numberAtCommit`): a negative integer, different in every process, that no real number
 * or amount equals. Never leaves the process: the storage replaces it in the outbox rows, and
 * `settle` in the objects, before anyone sees them.
 */
export const ORDER_NUMBER_PLACEHOLDER = -(2 ** 52 + Math.floor(Math.random() * 2 ** 51));

/**
 * Runs one use case as one transaction (architecture habit 2). Events raised with `emit` are
 * appended to the outbox in the same transaction, so an event exists exactly when its change
 * committed; in-process subscribers hear of them only after the commit.
 *
 * `scope` is the scope the use case was given ({@link RequestScope}; null for a write that
 * belongs to no store). Given a request's scope under an idempotency claim, the transaction also
 * stores the response the request gives for its value (`options.answer`, else the value itself)
 * as a compare-and-set on the claim; if the claim was taken over meanwhile (its lock expired and a
 * retry took the key), it throws 409 `idempotency_key_in_use` and the effect rolls back.
 * `options.interim` marks a transaction after which the request writes again.
 */
export async function write<T>(
  ctx: ServiceContext,
  scope: RequestScope | null,
  fn: (work: Work) => Promise<T>,
  options?: WriteOptions<T>,
): Promise<T> {
  const given = scope?.request?.claim;
  const claim = given !== undefined && given.open && !given.writing ? given : null;
  let emitted: EventRecord[] = [];
  let deferred: Array<Promise<unknown>> = [];
  let stored: StoredResponse | null = null;
  let interim = options?.interim === true;
  // At most one (an array: assigned by the use case's calls, which narrowing does not follow).
  const numbering: Array<{
    order: OrderAggregate;
    settle: (number: number) => void;
    numbered?: Promise<number>;
  }> = [];
  const now = ctx.clock.now();
  const result = await ctx.storage.transaction(async (tx) => {
    emitted = [];
    deferred = [];
    stored = null;
    interim = options?.interim === true;
    numbering.length = 0;
    const work: Work = {
      tx,
      now,
      numbersAtCommit:
        tx.orders.insertNumbered !== undefined &&
        (claim === null || tx.idempotency.completeAtCommit !== undefined),
      numberAtCommit(order, settle) {
        if (numbering.length > 0) throw new Error('One order number taken at COMMIT per transaction');
        if (tx.orders.insertNumbered === undefined)
          throw new Error('This storage takes no order number at COMMIT');
        numbering.push({ order, settle });
      },
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
      defer(pending) {
        // Reported by the storage (the transaction rejects); no unhandled rejection meanwhile.
        pending.catch(() => {});
        deferred.push(pending);
      },
    };
    let value: T;
    if (claim === null) value = await fn(work);
    else {
      claim.writing = true;
      try {
        value = await fn(work);
      } finally {
        claim.writing = false;
      }
    }
    // The outbox travels with the last writes and COMMIT (nothing here needs its result); with
    // an order numbered at COMMIT, in the same statement, the last before COMMIT.
    const numbered = numbering[0];
    if (numbered !== undefined) {
      numbered.numbered = tx.orders.insertNumbered!(numbered.order, {
        events: emitted,
        placeholder: ORDER_NUMBER_PLACEHOLDER,
      });
      work.defer(numbered.numbered);
    } else if (emitted.length > 0) work.defer(tx.events.append(emitted));
    if (claim !== null) {
      const response = interim ? null : responseOf(claim, value, options?.answer);
      if (response === INTERIM) interim = true;
      const completeAtCommit = tx.idempotency.completeAtCommit;
      if (response !== null && response !== INTERIM && completeAtCommit !== undefined) {
        // Stored with COMMIT: a claim taken over fails the statement, and the transaction with it.
        work.defer(
          completeAtCommit.call(
            tx.idempotency,
            claim.scope,
            claim.ref,
            replayOf(response),
            numbered === undefined ? undefined : { placeholder: ORDER_NUMBER_PLACEHOLDER },
          ),
        );
      } else {
        const held =
          response === null || response === INTERIM
            ? await tx.idempotency.renew(claim.scope, claim.ref, now + ctx.config.idempotency_lock_ms)
            : await tx.idempotency.complete(claim.scope, claim.ref, replayOf(response));
        if (!held) throw idempotencyClaimTakenOver();
      }
      stored = response === INTERIM ? null : response;
    }
    await failuresOf(deferred);
    return value;
  });
  // Settled by now (the storage awaited their statements); a failure it did not report surfaces.
  if (deferred.length > 0) await Promise.all(deferred);
  // The order number taken with COMMIT, into what was built with the placeholder.
  const taken = numbering[0];
  if (taken?.numbered !== undefined) {
    const number = await taken.numbered;
    taken.settle(number);
    // The response stored with it got the number in SQL; the one kept here gets it too.
    const kept = stored as StoredResponse | null;
    if (kept !== null) {
      stored = {
        ...kept,
        body: kept.body.replaceAll(`"number":${ORDER_NUMBER_PLACEHOLDER}`, `"number":${number}`),
      };
    }
  }
  if (claim !== null && !interim) {
    if (stored === null) claim.unanswered = true;
    else {
      claim.committed = stored;
      claim.unanswered = false;
    }
  }
  // Listeners get the events, not the request's scope: their own writes are not the request's.
  if (emitted.length > 0) ctx.events.publish(emitted);
  return result;
}

/**
 * Rejects with the first failure among deferred writes that failed before anything was sent
 * (thrown errors surface within the current turn of the event loop; SQLite's statements run at
 * once, so there every deferred write has finished by then). Writes still waiting for the
 * database are left in flight: their statements go with COMMIT and the storage reports them.
 */
function failuresOf(deferred: ReadonlyArray<Promise<unknown>>): Promise<void> {
  if (deferred.length === 0) return Promise.resolve();
  let cancel: (() => void) | undefined;
  const turn = new Promise<void>((resolve) => {
    cancel = nextTurn(resolve);
  });
  const settled = Promise.all(deferred).then(() => cancel?.());
  return Promise.race([settled, turn]);
}

/**
 * Calls `fn` in the next turn of the event loop: `setImmediate` where the runtime has it (Node,
 * Bun), else a zero-delay timer (browsers, workers). Answers a function that cancels the call.
 */
function nextTurn(fn: () => void): () => void {
  const host = globalThis as {
    setImmediate?: (fn: () => void) => unknown;
    clearImmediate?: (handle: unknown) => void;
  };
  if (host.setImmediate !== undefined && host.clearImmediate !== undefined) {
    const handle = host.setImmediate(fn);
    return () => host.clearImmediate?.(handle);
  }
  const handle = setTimeout(fn, 0);
  return () => clearTimeout(handle);
}

/**
 * The response stored for a transaction's value: INTERIM when its `answer` says so, null when it
 * cannot be rendered as the route's response (nothing is stored: see `RequestClaim.unanswered`).
 */
function responseOf<T>(
  claim: RequestClaim,
  value: T,
  answer: ((value: T) => unknown) | undefined,
): StoredResponse | typeof INTERIM | null {
  if (answer === undefined) return claim.render({ value });
  let answered: unknown;
  try {
    answered = answer(value);
  } catch (error) {
    return claim.render({ error });
  }
  return answered === INTERIM ? INTERIM : claim.render({ value: answered });
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
