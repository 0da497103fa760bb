import type { Mode, Scope } from '@cartwright/core';
import type { ApiKeyRecord, ApiKeyRepository, KeyType, Page, PageRequest } from '@cartwright/core/storage';
import { CompiledQuery, type Selectable } from 'kysely';
import { insertRows, insertTemplate } from '../query/insert-template';
import { keysetList, runKeysetList } from '../query/keyset-list';
import type { QueryRunner } from '../query/query-runner';
import { type Slots, template } from '../query/template';
import type { ApiKeysTable } from '../schema/database';

const insert = insertTemplate('api_keys');
/** SQLite: changes whenever another connection commits (api-key-lookups.ts). */
const DATA_VERSION = CompiledQuery.raw('pragma data_version') as CompiledQuery<{ data_version: number }>;
const findByHash = template(({ db }, p: Slots<'key_hash'>) =>
  db.selectFrom('api_keys').selectAll().where('key_hash', '=', p.key_hash),
);
const get = template(({ db }, p: Slots<'store_id' | 'mode' | 'id'>) =>
  db
    .selectFrom('api_keys')
    .selectAll()
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '=', p.id),
);
const revoke = template(({ db }, p: Slots<'store_id' | 'mode' | 'id' | 'at'>) =>
  db
    .updateTable('api_keys')
    .set({ revoked_at: p.at })
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '=', p.id)
    .where('revoked_at', 'is', null),
);
const rotate = template(({ db }, p: Slots<'store_id' | 'mode' | 'id' | 'key_hash' | 'key_prefix'>) =>
  db
    .updateTable('api_keys')
    .set({ key_hash: p.key_hash, key_prefix: p.key_prefix })
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '=', p.id)
    .where('revoked_at', 'is', null)
    .returningAll(),
);
const touch = template(({ db }, p: Slots<'id' | 'at'>) =>
  db.updateTable('api_keys').set({ last_used_at: p.at }).where('id', '=', p.id),
);
/** The scope's live keys: revoked ones are left out (the port's `list`). */
const list = keysetList({
  table: 'api_keys',
  sorts: { created_at: ['created_at'] },
  filterKey: () => '',
  base: ({ db }, p) =>
    db
      .selectFrom('api_keys')
      .where('store_id', '=', p.store_id)
      .where('mode', '=', p.mode)
      .where('revoked_at', 'is', null),
});

export function decodeApiKey(row: Selectable<ApiKeysTable>): ApiKeyRecord {
  return {
    id: row.id,
    store_id: row.store_id,
    mode: row.mode as Mode,
    name: row.name,
    key_type: row.key_type as KeyType,
    key_hash: row.key_hash,
    key_prefix: row.key_prefix,
    last_used_at: row.last_used_at,
    expires_at: row.expires_at,
    revoked_at: row.revoked_at,
    created_at: row.created_at,
  };
}

/** API keys: a global lookup by hash (reference table), listed per scope. */
export class KyselyApiKeyRepository implements ApiKeyRepository {
  constructor(private readonly q: QueryRunner) {}

  async findByHash(key_hash: string): Promise<ApiKeyRecord | null> {
    const lookups = this.q.storefront?.fill === true ? this.q.storefront.apiKeys : undefined;
    if (lookups === undefined) return this.#findByHash(key_hash);
    const generation = lookups.generation;
    const dataVersion = (await this.q.firstCompiled(DATA_VERSION))?.data_version ?? -1;
    const kept = lookups.get(key_hash, dataVersion);
    if (kept !== undefined) return kept;
    const record = await this.#findByHash(key_hash);
    lookups.set(key_hash, dataVersion, generation, record);
    return record;
  }

  async #findByHash(key_hash: string): Promise<ApiKeyRecord | null> {
    const row = await this.q.first(findByHash, { key_hash });
    return row ? decodeApiKey(row) : null;
  }

  /** This storage's own change to `api_keys`: its kept look-ups start over (see ApiKeyLookups). */
  #changed(): void {
    this.q.storefront?.apiKeys?.invalidate();
  }

  async insert(record: ApiKeyRecord): Promise<void> {
    this.#changed();
    await insertRows(this.q, insert, 'api_keys', [record]);
  }

  async get(scope: Scope, id: string): Promise<ApiKeyRecord | null> {
    const row = await this.q.first(get, { ...scope, id });
    return row ? decodeApiKey(row) : null;
  }

  list(scope: Scope, page: PageRequest<'created_at'>): Promise<Page<ApiKeyRecord>> {
    return runKeysetList(this.q, list, scope, undefined, {}, page, (rows) => rows.map(decodeApiKey));
  }

  async revoke(scope: Scope, id: string, at: number): Promise<boolean> {
    this.#changed();
    return (await this.q.affected(revoke, { ...scope, id, at })) > 0;
  }

  async rotate(
    scope: Scope,
    id: string,
    secret: { key_hash: string; key_prefix: string },
  ): Promise<ApiKeyRecord | null> {
    this.#changed();
    const row = await this.q.first(rotate, { ...scope, id, ...secret });
    return row ? decodeApiKey(row) : null;
  }

  async touch(id: string, at: number): Promise<void> {
    await this.q.affected(touch, { id, at });
  }
}
