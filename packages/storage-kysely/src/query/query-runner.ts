import type { CompiledQuery, QueryResult } from 'kysely';
import type { DialectCapabilities } from '../dialects/dialect-capabilities';
import type { StorefrontTemplateAccess } from '../repositories/storefront-template-cache';
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
}

/**
 * Runs templates on one executor: the root Kysely (reads outside a transaction) or the
 * connection/transaction a `Storage.transaction` callback is bound to. Every statement of the
 * repositories goes through here, so database errors are translated in one place.
 */
export class QueryRunner {
  readonly caps: DialectCapabilities;

  constructor(
    readonly db: StatementExecutor,
    readonly templates: TemplateCache,
    /** The storage's in-process storefront templates (product repository); none: no caching. */
    readonly storefront?: StorefrontTemplateAccess,
  ) {
    this.caps = templates.ctx.caps;
  }

  async rows<P extends string, R, S = undefined>(
    t: Template<P, R, S>,
    args: Args<P>,
    shape?: S,
  ): Promise<R[]> {
    const compiled = bindTemplate(this.templates.get(t, shape as S), args);
    try {
      return (await this.db.executeQuery(compiled)).rows;
    } catch (error) {
      throw translateDbError(error);
    }
  }

  async first<P extends string, R, S = undefined>(
    t: Template<P, R, S>,
    args: Args<P>,
    shape?: S,
  ): Promise<R | undefined> {
    return (await this.rows(t, args, shape))[0];
  }

  /** The compiled form of a template (compiling it on first use). */
  compiled<P extends string, R, S>(t: Template<P, R, S>, shape: S): CompiledTemplate<R> {
    return this.templates.get(t, shape);
  }

  /** Executes an already bound statement (callers that bind positionally, e.g. bulk inserts). */
  async execute<R>(compiled: CompiledQuery<R>): Promise<number> {
    try {
      const result = await this.db.executeQuery(compiled);
      return Number(result.numAffectedRows ?? 0n);
    } catch (error) {
      throw translateDbError(error);
    }
  }

  /** Executes a statement without RETURNING and reports the number of affected rows. */
  async affected<P extends string, R, S = undefined>(
    t: Template<P, R, S>,
    args: Args<P>,
    shape?: S,
  ): Promise<number> {
    const compiled = bindTemplate(this.templates.get(t, shape as S), args);
    try {
      const result = await this.db.executeQuery(compiled);
      return Number(result.numAffectedRows ?? 0n);
    } catch (error) {
      throw translateDbError(error);
    }
  }
}
