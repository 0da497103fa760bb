import type { Mode, Scope } from '@cartwright/core';
import type { PasswordResetRecord, PasswordResetRepository } from '@cartwright/core/storage';
import type { Selectable } from 'kysely';
import type { QueryRunner } from '../query/query-runner';
import { type Slots, template } from '../query/template';
import type { PasswordResetsTable } from '../schema/database';

type Slot = 'store_id' | 'mode' | 'id' | 'customer_id' | 'token_hash' | 'expires_at' | 'created_at';

/**
 * One upsert on the customer's unique key (0015): the new token takes the place of the customer's
 * earlier one, atomically on both engines — two concurrent requests leave one row, the later.
 */
const replace = template(({ db }, p: Slots<Slot>) =>
  db
    .insertInto('password_resets')
    .values({
      store_id: p.store_id,
      mode: p.mode,
      id: p.id,
      customer_id: p.customer_id,
      token_hash: p.token_hash,
      expires_at: p.expires_at,
      created_at: p.created_at,
    })
    .onConflict((oc) =>
      oc.columns(['store_id', 'mode', 'customer_id']).doUpdateSet((eb) => ({
        id: eb.ref('excluded.id'),
        token_hash: eb.ref('excluded.token_hash'),
        expires_at: eb.ref('excluded.expires_at'),
        created_at: eb.ref('excluded.created_at'),
      })),
    ),
);
/**
 * MariaDB only: locks the customer's row before the upsert. Concurrent `insert … on duplicate key
 * update` statements on a table with two unique keys take InnoDB gap locks in different orders and
 * deadlock (error 1213); taken first, this lock makes the replaces of one customer run one after
 * another, as they do on SQLite (writer lock) and PostgreSQL (the upsert's row lock).
 */
const lockCustomer = template(({ db }, p: Slots<'store_id' | 'mode' | 'customer_id'>) =>
  db
    .selectFrom('customers')
    .select('id')
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '=', p.customer_id)
    .forNoKeyUpdate(),
);
/**
 * The claim: one `DELETE … RETURNING` (SQLite ≥ 3.35, PostgreSQL). On PostgreSQL a concurrent
 * claim of the same row waits for the first to commit, then finds the row gone and deletes
 * nothing; SQLite's writers are serialised (BEGIN IMMEDIATE). Either way, exactly one claim
 * returns the row.
 */
const consume = template(({ db }, p: Slots<'store_id' | 'mode' | 'token_hash'>) =>
  db
    .deleteFrom('password_resets')
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('token_hash', '=', p.token_hash)
    .returningAll(),
);
const deleteForCustomer = template(({ db }, p: Slots<'store_id' | 'mode' | 'customer_id'>) =>
  db
    .deleteFrom('password_resets')
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('customer_id', '=', p.customer_id),
);

function decode(row: Selectable<PasswordResetsTable>): PasswordResetRecord {
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

/** Password reset tokens (docs/contract.md#password-reset): at most one per customer, claimed once. */
export class KyselyPasswordResetRepository implements PasswordResetRepository {
  constructor(private readonly q: QueryRunner) {}

  async replace(record: PasswordResetRecord): Promise<void> {
    if (this.q.caps.dialect === 'mysql') {
      await this.q.first(lockCustomer, {
        store_id: record.store_id,
        mode: record.mode,
        customer_id: record.customer_id,
      });
    }
    await this.q.affected(replace, record);
  }

  async consume(scope: Scope, token_hash: string): Promise<PasswordResetRecord | null> {
    const row = await this.q.first(consume, { ...scope, token_hash });
    return row ? decode(row) : null;
  }

  async deleteForCustomer(scope: Scope, customer_id: string): Promise<void> {
    await this.q.affected(deleteForCustomer, { ...scope, customer_id });
  }
}
