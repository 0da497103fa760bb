import type { Mode, Scope } from '@cartwright/core';
import type { CustomerTokenRecord, CustomerTokenRepository } from '@cartwright/core/storage';
import type { Selectable } from 'kysely';
import { insertRows, insertTemplate } from '../query/insert-template';
import type { QueryRunner } from '../query/query-runner';
import { type Slots, template } from '../query/template';
import type { CustomerTokensTable } from '../schema/database';

const insert = insertTemplate('customer_tokens');
const findByHash = template(({ db }, p: Slots<'store_id' | 'mode' | 'token_hash'>) =>
  db
    .selectFrom('customer_tokens')
    .selectAll()
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('token_hash', '=', p.token_hash),
);
const deleteOne = template(({ db }, p: Slots<'store_id' | 'mode' | 'id'>) =>
  db
    .deleteFrom('customer_tokens')
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '=', p.id),
);
const deleteForCustomer = template(({ db }, p: Slots<'store_id' | 'mode' | 'customer_id'>) =>
  db
    .deleteFrom('customer_tokens')
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('customer_id', '=', p.customer_id),
);
const deleteOthersOfCustomer = template(({ db }, p: Slots<'store_id' | 'mode' | 'customer_id' | 'id'>) =>
  db
    .deleteFrom('customer_tokens')
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('customer_id', '=', p.customer_id)
    .where('id', '!=', p.id),
);

function decode(row: Selectable<CustomerTokensTable>): CustomerTokenRecord {
  return {
    id: row.id,
    store_id: row.store_id,
    mode: row.mode as Mode,
    customer_id: row.customer_id,
    token_hash: row.token_hash,
    expires_at: row.expires_at,
    created_at: row.created_at,
  };
}

export class KyselyCustomerTokenRepository implements CustomerTokenRepository {
  constructor(private readonly q: QueryRunner) {}

  async insert(record: CustomerTokenRecord): Promise<void> {
    await insertRows(this.q, insert, 'customer_tokens', [record]);
  }

  async findByHash(scope: Scope, token_hash: string): Promise<CustomerTokenRecord | null> {
    const row = await this.q.first(findByHash, { ...scope, token_hash });
    return row ? decode(row) : null;
  }

  async delete(
    scope: Scope,
    target: string | { customer_id: string; except_id?: string | undefined },
  ): Promise<boolean> {
    if (typeof target === 'string') return (await this.q.affected(deleteOne, { ...scope, id: target })) > 0;
    const { customer_id, except_id } = target;
    const deleted =
      except_id === undefined
        ? await this.q.affected(deleteForCustomer, { ...scope, customer_id })
        : await this.q.affected(deleteOthersOfCustomer, { ...scope, customer_id, id: except_id });
    return deleted > 0;
  }
}
