import type { Mode, Scope } from '@cartwright/core';
import type {
  CollectionRecord,
  CollectionRepository,
  CollectionRules,
  JsonObject,
  Page,
  PageRequest,
  Patch,
} from '@cartwright/core/storage';
import { type Selectable, type SqlBool, sql } from 'kysely';
import type { DialectCapabilities } from '../dialects/dialect-capabilities';
import { insertRows, insertTemplate } from '../query/insert-template';
import { keysetList, runKeysetList } from '../query/keyset-list';
import type { QueryRunner } from '../query/query-runner';
import { type Slots, shapedTemplate, template } from '../query/template';
import { updateArgs, updateTemplate } from '../query/update-template';
import type { CollectionsTable } from '../schema/database';
import { scoped } from './scoped-args';

type ScopeSlots = 'store_id' | 'mode';

const insert = insertTemplate('collections');
const insertMember = insertTemplate('collection_products');
const update = updateTemplate('collections');

const byKey = shapedTemplate(
  (by: 'id' | 'slug') => by,
  ({ db }, p: Slots<ScopeSlots | 'key'>, by: 'id' | 'slug') =>
    db
      .selectFrom('collections')
      .selectAll()
      .where('store_id', '=', p.store_id)
      .where('mode', '=', p.mode)
      .where(sql<SqlBool>`${sql.ref(by)} = ${p.key}`),
);

const deleteCollection = template(({ db }, p: Slots<ScopeSlots | 'id'>) =>
  db
    .deleteFrom('collections')
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '=', p.id),
);

const deleteMembers = template(({ db }, p: Slots<ScopeSlots | 'id'>) =>
  db
    .deleteFrom('collection_products')
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('collection_id', '=', p.id),
);

/** Members of some collections, in display order; `active`: only members whose product is active. */
const membersOf = shapedTemplate(
  (active: boolean) => (active ? 'active' : 'all'),
  ({ db, caps }, p: Slots<ScopeSlots | 'ids'>, active: boolean) => {
    let query = db
      .selectFrom('collection_products as cp')
      .select(['cp.collection_id', 'cp.product_id'])
      .where('cp.store_id', '=', p.store_id)
      .where('cp.mode', '=', p.mode)
      .where(caps.inList(sql.ref('cp.collection_id'), p.ids));
    if (active) {
      query = query.where(({ exists, selectFrom }) =>
        exists(
          selectFrom('products as pr')
            .select(sql`1`.as('one'))
            .whereRef('pr.store_id', '=', 'cp.store_id')
            .whereRef('pr.mode', '=', 'cp.mode')
            .whereRef('pr.id', '=', 'cp.product_id')
            .where('pr.deleted_at', 'is', null)
            .where('pr.status', '=', 'active'),
        ),
      );
    }
    return query.orderBy('cp.collection_id').orderBy('cp.position');
  },
);

const liveProducts = template(({ db, caps }, p: Slots<ScopeSlots | 'ids'>) =>
  db
    .selectFrom('products')
    .select('id')
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where(caps.inList(sql.ref('id'), p.ids))
    .where('deleted_at', 'is', null),
);

/**
 * The admin list (`created_at`, newest first) and the storefront's (`position` ascending, then
 * `created_at` descending — one direction for the keyset, so the key is `0 - created_at` —, then id).
 */
const list = keysetList({
  table: 'collections',
  sorts: { created_at: ['created_at'], position: ['position', '(0 - created_at)'] },
  filterKey: (f: { type: boolean }) => (f.type ? 'type' : ''),
  base: ({ db }, p: Slots<'store_id' | 'mode' | 'type'>, f) => {
    const query = db.selectFrom('collections').where('store_id', '=', p.store_id).where('mode', '=', p.mode);
    return f.type ? query.where('type', '=', p.type) : query;
  },
});

function decode(row: Selectable<CollectionsTable>, c: DialectCapabilities): CollectionRecord {
  return {
    id: row.id,
    store_id: row.store_id,
    mode: row.mode as Mode,
    name: row.name,
    slug: row.slug,
    description: row.description,
    type: row.type as CollectionRecord['type'],
    rules: row.rules === null ? null : c.parseJson<CollectionRules>(row.rules),
    position: Number(row.position),
    metadata: c.parseJson<JsonObject>(row.metadata),
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
  };
}

/** Collections (0023_collections): the records and manual collections' ordered members. */
export class KyselyCollectionRepository implements CollectionRepository {
  constructor(private readonly q: QueryRunner) {}

  async insert(record: CollectionRecord): Promise<void> {
    const c = this.q.caps;
    await insertRows(this.q, insert, 'collections', [
      { ...record, rules: c.jsonOrNull(record.rules), metadata: c.json(record.metadata) },
    ]);
  }

  async get(scope: Scope, key: string | { slug: string }): Promise<CollectionRecord | null> {
    const by = typeof key === 'string' ? 'id' : 'slug';
    const row = await this.q.first(
      byKey,
      scoped(scope, { key: typeof key === 'string' ? key : key.slug }),
      by,
    );
    return row ? decode(row, this.q.caps) : null;
  }

  list(
    scope: Scope,
    filter: { type?: CollectionRecord['type'] | undefined },
    page: PageRequest<'created_at' | 'position'>,
  ): Promise<Page<CollectionRecord>> {
    const c = this.q.caps;
    return runKeysetList(
      this.q,
      list,
      scope,
      { type: filter.type !== undefined },
      { type: filter.type },
      page,
      (rows) => rows.map((row) => decode(row, c)),
    );
  }

  async update(
    scope: Scope,
    id: string,
    patch: Patch<
      CollectionRecord,
      'name' | 'slug' | 'description' | 'type' | 'rules' | 'position' | 'metadata'
    >,
  ): Promise<CollectionRecord | null> {
    const c = this.q.caps;
    const { shape, args } = updateArgs(
      {
        name: patch.name,
        slug: patch.slug,
        description: patch.description,
        type: patch.type,
        // `null` clears (updateArgs sets a column given null; undefined leaves it).
        rules: patch.rules === undefined ? undefined : c.jsonOrNull(patch.rules),
        position: patch.position,
        metadata: patch.metadata === undefined ? undefined : c.json(patch.metadata),
        updated_at: patch.updated_at,
      },
      scoped(scope, { id }),
    );
    const row = await this.q.first(update, args, shape);
    return row ? decode(row, c) : null;
  }

  async delete(scope: Scope, id: string): Promise<boolean> {
    const key = scoped(scope, { id });
    await this.q.affected(deleteMembers, key);
    return (await this.q.affected(deleteCollection, scoped(scope, { id }))) > 0;
  }

  async setMembers(scope: Scope, collection_id: string, product_ids: readonly string[]): Promise<void> {
    await this.q.affected(deleteMembers, scoped(scope, { id: collection_id }));
    await insertRows(
      this.q,
      insertMember,
      'collection_products',
      product_ids.map((product_id, position) => ({
        store_id: scope.store_id,
        mode: scope.mode,
        collection_id,
        product_id,
        position,
      })),
    );
  }

  async members(
    scope: Scope,
    collection_ids: readonly string[],
    options: { active_only?: boolean } = {},
  ): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    if (collection_ids.length === 0) return out;
    const rows = await this.q.rows(
      membersOf,
      scoped(scope, { ids: this.q.caps.list(collection_ids) }),
      options.active_only === true,
    );
    for (const row of rows) {
      const list = out.get(row.collection_id);
      if (list) list.push(row.product_id);
      else out.set(row.collection_id, [row.product_id]);
    }
    return out;
  }

  async existingProducts(scope: Scope, product_ids: readonly string[]): Promise<Set<string>> {
    if (product_ids.length === 0) return new Set();
    const rows = await this.q.rows(liveProducts, scoped(scope, { ids: this.q.caps.list(product_ids) }));
    return new Set(rows.map((row) => row.id));
  }
}
