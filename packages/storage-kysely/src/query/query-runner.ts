import type { CompiledQuery, QueryResult } from 'kysely';
import type { DialectCapabilities } from '../dialects/dialect-capabilities';
import type { ApiKeyLookups } from '../repositories/api-key-lookups';
import { translateDbError } from '../translate-db-error';
import {
  type Args,
  bindTemplate,
  type CompiledTemplate,
  type Template,
  type TemplateCache,
} from './template';

/**
 * What statements run on: a Kysely instance (or a transaction / connection bound one), or the
 * SQLite adapter's direct executor over its cached better-sqlite3 statements.
 */
export interface StatementExecutor {
  executeQuery<R>(compiled: CompiledQuery<R>): Promise<QueryResult<R>>;
  /**
   * Runs the statement synchronously when the executor can do so right now (SQLite: inside the
   * transaction that holds the connection, or outside any transaction while the connection is
   * free) and returns its result; `undefined`: it cannot, use {@link executeQuery}. Errors are
   * thrown as they are (untranslated). Optional: Postgres has no such path.
   */
  runNow?<R>(compiled: CompiledQuery<R>): QueryResult<R> | undefined;
}

/**
 * Runs templates on one executor: the root Kysely (reads outside a transaction) or the
 * connection/transaction a `Storage.transaction` callback is bound to. Every statement of the
 * repositories goes through here, so database errors are translated in one place.
 *
 * When the executor can run a statement at once (`runNow`, SQLite), the methods are not `async`:
 * they run it, then hand back ONE settled promise — instead of the three promises and three
 * microtask hops of `async` wrappers around an awaited executor promise. With the engine's
 * AsyncLocalStorage every promise also runs the async-hooks init hook, and a checkout makes
 * ~17 statements. Statements still run at the moment they are called, as before; errors still
 * arrive as rejections (translated), never as synchronous throws.
 */
/**
 * What a repository gets of its storage's in-process caches, and whether its reads may fill
 * them — true only for the repositories of reads outside a transaction (which see committed rows
 * only). (Named `storefront` on the runner for history; the storefront caches themselves live in
 * storefront-read-model/ and are not reached through repositories.)
 */
export interface InProcessCaches {
  readonly fill: boolean;
  /** SQLite: API keys by hash while the file is unchanged (api-key-lookups.ts); none: not kept. */
  readonly apiKeys?: ApiKeyLookups;
}

export class QueryRunner {
  readonly caps: DialectCapabilities;

  constructor(
    readonly db: StatementExecutor,
    readonly templates: TemplateCache,
    /** The storage's in-process caches this runner's repositories may use; none: no caching. */
    readonly storefront?: InProcessCaches,
  ) {
    this.caps = templates.ctx.caps;
  }

  rows<P extends string, R, S = undefined>(t: Template<P, R, S>, args: Args<P>, shape?: S): Promise<R[]> {
    return this.#run(bindTemplate(this.templates.get(t, shape as S), args), allRows);
  }

  first<P extends string, R, S = undefined>(
    t: Template<P, R, S>,
    args: Args<P>,
    shape?: S,
  ): Promise<R | undefined> {
    return this.#run(bindTemplate(this.templates.get(t, shape as S), args), firstRow);
  }

  /** The first row of a statement given as compiled SQL (e.g. a pragma), or undefined. */
  firstCompiled<R>(compiled: CompiledQuery<R>): Promise<R | undefined> {
    return this.#run(compiled, firstRow);
  }

  /** The compiled form of a template (compiling it on first use). */
  compiled<P extends string, R, S>(t: Template<P, R, S>, shape: S): CompiledTemplate<R> {
    return this.templates.get(t, shape);
  }

  /** Executes an already bound statement (callers that bind positionally, e.g. bulk inserts). */
  execute<R>(compiled: CompiledQuery<R>): Promise<number> {
    return this.#run(compiled, affectedRows);
  }

  /** Executes a statement without RETURNING and reports the number of affected rows. */
  affected<P extends string, R, S = undefined>(
    t: Template<P, R, S>,
    args: Args<P>,
    shape?: S,
  ): Promise<number> {
    return this.execute(bindTemplate(this.templates.get(t, shape as S), args));
  }

  /**
   * Runs `compiled` at once when the executor can (`runNow`), else through its promise, and
   * hands back `pick` of the result as ONE promise; errors are translated and always arrive as
   * rejections.
   */
  #run<R, T>(compiled: CompiledQuery<R>, pick: (result: QueryResult<R>) => T): Promise<T> {
    let result: QueryResult<R> | undefined;
    try {
      result = this.db.runNow?.(compiled);
    } catch (error) {
      return Promise.reject(translateDbError(error));
    }
    if (result !== undefined) return Promise.resolve(pick(result));
    return this.#later(compiled).then(pick);
  }

  /** Through the executor's promise (Postgres, or SQLite while another user holds the connection). */
  async #later<R>(compiled: CompiledQuery<R>): Promise<QueryResult<R>> {
    try {
      return await this.db.executeQuery(compiled);
    } catch (error) {
      throw translateDbError(error);
    }
  }
}

function allRows<R>(result: QueryResult<R>): R[] {
  return result.rows;
}

function firstRow<R>(result: QueryResult<R>): R | undefined {
  return result.rows[0];
}

function affectedRows(result: QueryResult<unknown>): number {
  return Number(result.numAffectedRows ?? 0n);
}
