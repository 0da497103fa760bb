import type { Statement } from 'better-sqlite3';
import type { CompiledQuery, QueryResult } from 'kysely';
import type { StatementExecutor } from '../../query/query-runner';

/** Prepared statements by SQL text (see statement-cache.ts). */
export interface StatementSource {
  prepare(sql: string): Statement;
}

/**
 * Runs one compiled statement on better-sqlite3 at once, as Kysely's SQLite driver does
 * (`all` for statements that return rows, `run` otherwise), minus the driver's connection
 * mutex and promise chain: the caller decides when the connection is free (see
 * {@link ConnectionGate}).
 */
export function runStatement<R>(source: StatementSource, compiled: CompiledQuery<R>): QueryResult<R> {
  const statement = source.prepare(compiled.sql);
  if (statement.reader) return { rows: statement.all(compiled.parameters as unknown[]) as R[] };
  const { changes } = statement.run(compiled.parameters as unknown[]);
  return { rows: [], numAffectedRows: BigInt(changes) };
}

/**
 * The one SQLite connection of a storage, handed to one user at a time: a transaction holds it
 * from BEGIN to COMMIT, a statement outside any transaction holds it for that statement only
 * (better-sqlite3 runs it synchronously, so when the connection is free it runs at once,
 * without waiting a tick). Waiters are served first come, first served.
 */
export class ConnectionGate {
  #busy = false;
  readonly #waiters: Array<() => void> = [];

  get busy(): boolean {
    return this.#busy;
  }

  acquire(): Promise<void> {
    if (!this.#busy) {
      this.#busy = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Hands the connection to the next waiter (it stays busy), or frees it. */
  release(): void {
    const next = this.#waiters.shift();
    if (next) next();
    else this.#busy = false;
  }
}

/** Statements inside the transaction that holds the gate: run at once. */
export function transactionExecutor(source: StatementSource): StatementExecutor {
  return {
    executeQuery<R>(compiled: CompiledQuery<R>): Promise<QueryResult<R>> {
      try {
        return Promise.resolve(runStatement(source, compiled));
      } catch (error) {
        return Promise.reject(error);
      }
    },
    runNow: <R>(compiled: CompiledQuery<R>): QueryResult<R> => runStatement(source, compiled),
  };
}

/** Statements outside any transaction: at once when the connection is free, else in turn. */
export function rootExecutor(source: StatementSource, gate: ConnectionGate): StatementExecutor {
  return {
    async executeQuery<R>(compiled: CompiledQuery<R>): Promise<QueryResult<R>> {
      if (!gate.busy) return runStatement(source, compiled);
      await gate.acquire();
      try {
        return runStatement(source, compiled);
      } finally {
        gate.release();
      }
    },
    runNow: <R>(compiled: CompiledQuery<R>): QueryResult<R> | undefined =>
      gate.busy ? undefined : runStatement(source, compiled),
  };
}
