import type { CompiledQuery, QueryResult } from 'kysely';
import type pg from 'pg';
import type { StatementExecutor } from '../../query/query-runner';
import type { StatementFailures } from '../../query/tracked-statements';
import { translateDbError } from '../../translate-db-error';

/** What the storage counts of its traffic to PostgreSQL (see `PostgresStorage.stats`). */
export interface PostgresTraffic {
  /** Statements sent, transaction control (BEGIN, COMMIT, ROLLBACK, SAVEPOINT) included. */
  statements: number;
  /**
   * Times the storage sent something while nothing of the same connection was awaiting an
   * answer: the waits a request pays. Statements sent while others are still in flight on the
   * connection (pipelined) share their round trip.
   */
  roundTrips: number;
}

/** The pg query config of a statement (type parsers; prepared-statement name for template SQL). */
export type QueryConfigOf = (sql: string, parameters: ReadonlyArray<unknown>) => pg.QueryConfig;

/** Kysely's result shape of a pg result (as Kysely's own PostgresConnection builds it). */
export function toKyselyResult<R>(result: pg.QueryResult): QueryResult<R> {
  const { command, rowCount, rows } = result;
  const changed = command === 'INSERT' || command === 'UPDATE' || command === 'DELETE' || command === 'MERGE';
  return changed
    ? { numAffectedRows: BigInt(rowCount ?? 0), rows: (rows ?? []) as R[] }
    : { rows: (rows ?? []) as R[] };
}

const BEGIN = 'start transaction isolation level read committed';

/**
 * One READ COMMITTED transaction on a pooled connection, with its statements PIPELINED when the
 * connection is a pg ≥ 8.23 client in pipeline mode (`new Pool({ pipeline: true })`, what the
 * storage creates): every statement is written at once, without waiting for the answer of the
 * ones before it, and the server runs them in order. So
 *
 * - BEGIN travels with the transaction's first statement (no round trip of its own);
 * - statements a use case starts together (several repository calls before it awaits any) share
 *   one round trip, and each still runs on a snapshot taken after the one before it finished — a
 *   read sent behind `SELECT … FOR UPDATE` sees what the lock holder committed;
 * - statements still in flight when the callback returns travel with COMMIT: the transaction
 *   waits for all of them, and if any failed, PostgreSQL turns the COMMIT into a ROLLBACK and
 *   the transaction rejects with the first failure (translated as every statement error is).
 *
 * A failed statement makes every later one of the transaction fail ("current transaction is
 * aborted"), so nothing sent behind a failure takes effect. Writes within one flight of the
 * socket are corked together (one `writev`). A client without pipeline mode (a pool the caller
 * made) gets the same semantics with one statement at a time.
 */
export class PipelinedTransaction implements StatementExecutor, StatementFailures {
  readonly #client: pg.PoolClient;
  readonly #configOf: QueryConfigOf;
  readonly #traffic: PostgresTraffic;
  readonly #pipelined: boolean;
  /** Every statement's settlement (never rejects), to wait for all before COMMIT / ROLLBACK. */
  readonly #settled: Array<Promise<void>> = [];
  #inFlight = 0;
  #sequence = 0;
  #failures: Array<{ sequence: number; error: unknown }> = [];
  #corked = false;
  /** Serial mode only: the statement sent last. */
  #tail: Promise<unknown> = Promise.resolve();

  constructor(client: pg.PoolClient, configOf: QueryConfigOf, traffic: PostgresTraffic) {
    this.#client = client;
    this.#configOf = configOf;
    this.#traffic = traffic;
    this.#pipelined = (client as unknown as { pipeline?: boolean }).pipeline === true;
  }

  /** Sends BEGIN (not awaited: it travels with the first statement). */
  begin(): void {
    void this.#send(BEGIN, []).catch(() => {});
  }

  executeQuery<R>(compiled: CompiledQuery<R>): Promise<QueryResult<R>> {
    return this.#send(compiled.sql, compiled.parameters).then(toKyselyResult<R>);
  }

  /**
   * Sends COMMIT behind whatever is still in flight and waits for everything; rejects with the
   * first statement failure (the transaction then rolled back) or a failed COMMIT.
   */
  async commit(): Promise<void> {
    const commit = this.#send('commit', []);
    commit.catch(() => {});
    await Promise.all(this.#settled);
    const first = this.#failures[0];
    if (first) throw translateDbError(first.error);
    const result = await commit;
    if (result.command !== 'COMMIT') {
      throw new Error(`PostgreSQL answered COMMIT with ${result.command}: the transaction rolled back`);
    }
  }

  mark(): number {
    return this.#sequence;
  }

  forgetSince(mark: number): void {
    this.#failures = this.#failures.filter((failure) => failure.sequence <= mark);
  }

  /** Waits for what is in flight, then rolls back. Rejects only if the connection is unusable. */
  async rollback(): Promise<void> {
    await Promise.all(this.#settled);
    await this.#send('rollback', []);
  }

  #send(sql: string, parameters: ReadonlyArray<unknown>): Promise<pg.QueryResult> {
    this.#traffic.statements++;
    const sequence = ++this.#sequence;
    const config = this.#configOf(sql, parameters);
    let sent: Promise<pg.QueryResult>;
    if (this.#pipelined) {
      if (this.#inFlight === 0) this.#traffic.roundTrips++;
      this.#inFlight++;
      this.#cork();
      sent = this.#client.query(config);
    } else {
      sent = this.#tail.then(() => {
        this.#traffic.roundTrips++;
        return this.#client.query(config);
      });
      this.#tail = sent.catch(() => {});
    }
    this.#settled.push(
      sent.then(
        () => {
          this.#inFlight--;
        },
        (error: unknown) => {
          this.#inFlight--;
          this.#failures.push({ sequence, error });
        },
      ),
    );
    return sent;
  }

  /**
   * Holds the socket's writes until the current tick's statements are all written, so one
   * flight leaves in one `writev` instead of one per statement.
   */
  #cork(): void {
    if (this.#corked) return;
    const stream = (this.#client as unknown as { connection?: { stream?: NodeJS.WritableStream } }).connection
      ?.stream as (NodeJS.WritableStream & { cork?(): void; uncork?(): void }) | undefined;
    if (!stream?.cork || !stream.uncork) return;
    this.#corked = true;
    stream.cork();
    process.nextTick(() => {
      this.#corked = false;
      stream.uncork?.();
    });
  }
}
