import { AsyncLocalStorage } from 'node:async_hooks';
import type { Repositories, Storage, StorefrontReadModel } from '@cartwright/core/storage';
import { CompiledQuery, type Kysely, Migrator } from 'kysely';
import { AsyncMutex } from './async-mutex';
import type { DialectCapabilities } from './dialects/dialect-capabilities';
import { createMigrationProvider } from './migrations/migration-provider';
import { QueryRunner, type StatementExecutor } from './query/query-runner';
import { TemplateCache } from './query/template';
import { hasStatementFailures } from './query/tracked-statements';
import { ApiKeyLookups } from './repositories/api-key-lookups';
import { createRepositories } from './repositories/create-repositories';
import type { Database } from './schema/database';
import { hasCatalogVersions } from './storefront-read-model/catalog-versions';
import { StorefrontPageCache } from './storefront-read-model/page-cache';
import { KyselyStorefrontReadModel } from './storefront-read-model/read-model';
import { rebuildCatalogDocuments } from './storefront-read-model/rebuild-documents';

/** The transaction a callback runs in, found again by nested calls through AsyncLocalStorage. */
interface TransactionFrame {
  readonly owner: KyselyStorage;
  readonly executor: StatementExecutor;
  readonly repos: Repositories;
  /** Serialises nested calls made concurrently inside this frame. */
  readonly nested: AsyncMutex;
  readonly counter: { savepoints: number };
  active: boolean;
}

const frames = new AsyncLocalStorage<TransactionFrame>();

/**
 * A check owed by everything a `checked` callback starts (the port's `Storage.checked`): sent
 * once, first on the connection of the first transaction or read that starts.
 */
class OwedCheck {
  #started: Promise<void> | undefined;
  constructor(
    readonly owner: KyselyStorage,
    readonly check: (repos: Repositories) => Promise<void>,
  ) {}
  /** Sends the check on `repos` unless it was sent already; its settlement either way. */
  start(repos: Repositories): Promise<void> {
    if (this.#started === undefined) {
      let started: Promise<void>;
      try {
        started = this.check(repos);
      } catch (error) {
        started = Promise.reject(error);
      }
      started.catch(() => {});
      this.#started = started;
    }
    return this.#started;
  }
  get started(): Promise<void> | undefined {
    return this.#started;
  }
}

const owedChecks = new AsyncLocalStorage<OwedCheck>();

/** `work`'s result once `checking` resolved; when `checking` rejects, its error wins over `work`'s. */
async function afterCheck<T>(work: Promise<T>, checking: Promise<void>): Promise<T> {
  let result: T;
  try {
    result = await work;
  } catch (error) {
    await checking;
    throw error;
  }
  await checking;
  return result;
}

/**
 * The engine-independent half of both storages: migrations, repositories over a Kysely
 * executor, and the nesting rules. Subclasses only open a transaction (`runTransaction`).
 *
 * Nesting: a `transaction()` or `read()` called inside a transaction callback of the same
 * storage joins that transaction (a SAVEPOINT for `transaction`, so a nested failure rolls back
 * only its own work) instead of opening a second one — on SQLite a second writer would wait
 * for the first forever. Nested calls made concurrently are queued.
 */
export abstract class KyselyStorage implements Storage {
  abstract readonly dialect: 'sqlite' | 'postgres' | 'mysql';
  readonly templates: TemplateCache;
  /**
   * Storefront responses kept in process by catalog version (bounded; the read model's page
   * cache, storefront-read-model/README.md); used by reads outside a transaction only.
   */
  readonly storefrontPages = new StorefrontPageCache();
  /** The storefront read model (storefront-read-model/README.md: its contract). */
  readonly storefront: StorefrontReadModel;
  /** API key records by hash while the database is unchanged (SQLite only; api-key-lookups.ts). */
  readonly apiKeyLookups: ApiKeyLookups | undefined;
  #rootRepositories: Repositories | undefined;
  #rootQuery: QueryRunner | undefined;

  constructor(
    /** The Kysely instance (for tooling such as introspection; repositories use templates). */
    readonly db: Kysely<Database>,
    readonly caps: DialectCapabilities,
  ) {
    this.templates = new TemplateCache({ db, caps });
    this.apiKeyLookups = caps.dialect === 'sqlite' ? new ApiKeyLookups() : undefined;
    this.storefront = new KyselyStorefrontReadModel(
      {
        inTransaction: () => {
          const frame = frames.getStore();
          return frame?.owner === this && frame.active;
        },
        read: (fn) => this.read(fn),
        committed: () => {
          this.#rootQuery ??= new QueryRunner(this.rootExecutor(), this.templates, { fill: true });
          return this.#rootQuery;
        },
      },
      this.storefrontPages,
    );
  }

  /**
   * Runs `body` inside one database transaction; commits or rolls back. `body` gets the
   * executor bound to the transaction and the repositories over it (a subclass whose
   * transactions always run on the same executor may hand the same repositories every time).
   */
  protected abstract runTransaction<T>(
    body: (executor: StatementExecutor, repos: Repositories) => Promise<T>,
  ): Promise<T>;

  /** Where statements outside a transaction run. Default: the Kysely instance. */
  protected rootExecutor(): StatementExecutor {
    return this.db;
  }

  /**
   * Repositories over an executor (one set per executor is enough: they hold no state).
   * `committed`: the executor runs reads outside any transaction (they see committed rows only),
   * so they may fill the storefront template cache.
   */
  protected repositoriesOn(executor: StatementExecutor, committed = false): Repositories {
    const storefront = {
      fill: committed,
      ...(this.apiKeyLookups !== undefined && { apiKeys: this.apiKeyLookups }),
    };
    return createRepositories(new QueryRunner(executor, this.templates, storefront));
  }

  async migrate(): Promise<void> {
    const migrator = new Migrator({ db: this.db, provider: createMigrationProvider(this.dialect) });
    const { error, results } = await migrator.migrateToLatest();
    if (error) {
      const failed = results?.find((result) => result.status === 'Error');
      throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, { cause: error });
    }
    // No catalog-version triggers in this dialect's schema (0021): never keep a response.
    if (!hasCatalogVersions(this.dialect)) this.storefrontPages.resize({ maxEntries: 0 });
    // The storefront read model's derived data (storefront-read-model/README.md): the catalog
    // documents of products whose format is not the one this code writes.
    await rebuildCatalogDocuments(this.db as unknown as Kysely<unknown>, this.caps.dialect);
  }

  transaction<T>(fn: (tx: Repositories) => Promise<T>): Promise<T> {
    const frame = frames.getStore();
    if (frame?.owner === this && frame.active) return frame.nested.run(() => this.#savepoint(frame, fn));
    const owed = this.#owedCheck();
    return this.runTransaction(async (executor, repos) => {
      const top: TransactionFrame = {
        owner: this,
        executor,
        repos,
        nested: new AsyncMutex(),
        counter: { savepoints: 0 },
        active: true,
      };
      try {
        // The owed check first, right behind BEGIN; the transaction commits only once it passed.
        const checking = owed?.start(repos);
        const work = frames.run(top, () => fn(top.repos));
        return await (checking === undefined ? work : afterCheck(work, checking));
      } finally {
        top.active = false;
      }
    });
  }

  read<T>(fn: (repos: Repositories) => Promise<T>): Promise<T> {
    const frame = frames.getStore();
    if (frame?.owner === this && frame.active) return fn(frame.repos);
    const repositories = this.#root();
    const owed = this.#owedCheck();
    if (owed === undefined) return fn(repositories);
    const checking = owed.start(repositories);
    let work: Promise<T>;
    try {
      work = fn(repositories);
    } catch (error) {
      work = Promise.reject(error);
    }
    return afterCheck(work, checking);
  }

  /** The port's `checked`: `check` sent by the first transaction or read `fn` starts (or at its end). */
  async checked<T>(check: (repos: Repositories) => Promise<void>, fn: () => Promise<T>): Promise<T> {
    const owed = new OwedCheck(this, check);
    let work: Promise<T>;
    try {
      work = owedChecks.run(owed, fn);
    } catch (error) {
      work = Promise.reject(error);
    }
    // Settled first, so that a check started late (at the end) never runs beside fn's statements.
    const outcome = await work.then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    await (owed.started ?? owed.start(this.#root()));
    if ('error' in outcome) throw outcome.error;
    return outcome.value;
  }

  #owedCheck(): OwedCheck | undefined {
    const owed = owedChecks.getStore();
    return owed?.owner === this ? owed : undefined;
  }

  #root(): Repositories {
    let repositories = this.#rootRepositories;
    if (!repositories) {
      repositories = this.repositoriesOn(this.rootExecutor(), true);
      this.#rootRepositories = repositories;
    }
    return repositories;
  }

  async close(): Promise<void> {
    await this.db.destroy();
  }

  async #savepoint<T>(parent: TransactionFrame, fn: (tx: Repositories) => Promise<T>): Promise<T> {
    const name = `cartwright_sp_${++parent.counter.savepoints}`;
    const run = (statement: string) => parent.executor.executeQuery(CompiledQuery.raw(statement));
    const child: TransactionFrame = { ...parent, nested: new AsyncMutex(), active: true };
    const failures = hasStatementFailures(parent.executor) ? parent.executor : undefined;
    await run(`savepoint ${name}`);
    const mark = failures?.mark() ?? 0;
    try {
      const result = await frames.run(child, () => fn(child.repos));
      await run(`release savepoint ${name}`);
      return result;
    } catch (error) {
      await run(`rollback to savepoint ${name}`);
      // What failed inside the savepoint was rolled back with it: it no longer fails the
      // transaction (docs: "Transactions" in the port's README).
      failures?.forgetSince(mark);
      await run(`release savepoint ${name}`);
      throw error;
    } finally {
      child.active = false;
    }
  }
}
