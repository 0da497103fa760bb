import type { CompiledQuery, QueryResult } from 'kysely';
import { translateDbError } from '../translate-db-error';
import type { StatementExecutor } from './query-runner';

/**
 * What a transaction's executor knows of its statements' failures, so that the port's rule holds
 * on every engine (packages/core/src/ports/storage/README.md, "Transactions"): a statement that
 * failed fails its transaction — whether or not the callback awaited it — unless it ran inside
 * a nested transaction (a SAVEPOINT) that was rolled back.
 */
export interface StatementFailures {
  /** A mark for the statements sent so far (taken when a savepoint opens). */
  mark(): number;
  /** Forgets the failures of statements sent after `mark` (their savepoint was rolled back). */
  forgetSince(mark: number): void;
}

export function hasStatementFailures(
  executor: StatementExecutor,
): executor is StatementExecutor & StatementFailures {
  return typeof (executor as Partial<StatementFailures>).mark === 'function';
}

/**
 * A transaction executor (SQLite's, MariaDB's) that remembers its statements' failures and the
 * statements still in flight: `settle()` waits for those and throws the first failure left.
 * (PostgreSQL's pipelined transaction does the same itself, COMMIT included: see
 * dialects/postgres/pipelined-transaction.ts.)
 */
export class TrackedStatements implements StatementExecutor, StatementFailures {
  readonly #inner: StatementExecutor;
  #sequence = 0;
  #failures: Array<{ sequence: number; error: unknown }> = [];
  #pending: Array<Promise<void>> = [];
  readonly runNow?: <R>(compiled: CompiledQuery<R>) => QueryResult<R> | undefined;

  constructor(inner: StatementExecutor) {
    this.#inner = inner;
    const runNow = inner.runNow?.bind(inner);
    if (runNow) {
      this.runNow = <R>(compiled: CompiledQuery<R>) => {
        const sequence = ++this.#sequence;
        try {
          return runNow(compiled);
        } catch (error) {
          this.#failures.push({ sequence, error });
          throw error;
        }
      };
    }
  }

  executeQuery<R>(compiled: CompiledQuery<R>): Promise<QueryResult<R>> {
    const sequence = ++this.#sequence;
    const sent = this.#inner.executeQuery(compiled);
    this.#pending.push(
      sent.then(
        () => undefined,
        (error: unknown) => {
          this.#failures.push({ sequence, error });
        },
      ),
    );
    return sent;
  }

  mark(): number {
    return this.#sequence;
  }

  forgetSince(mark: number): void {
    this.#failures = this.#failures.filter((failure) => failure.sequence <= mark);
  }

  /** Starts over for the next transaction (an executor reused by every transaction). */
  reset(): void {
    this.#sequence = 0;
    this.#failures = [];
    this.#pending = [];
  }

  /** Waits for the statements in flight; throws the first failure not forgotten (translated). */
  async settle(): Promise<void> {
    if (this.#pending.length > 0) {
      const pending = this.#pending;
      this.#pending = [];
      await Promise.all(pending);
    }
    const first = this.#failures[0];
    if (first) throw translateDbError(first.error);
  }
}
