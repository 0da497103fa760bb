import { CommerceError } from '@cartwright/core';
import { type CompiledQuery, Kysely, type QueryResult, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { sqliteCapabilities } from '../dialects/sqlite/sqlite-capabilities';
import type { Database } from '../schema/database';
import { QueryRunner, type StatementExecutor } from './query-runner';
import { type Slots, TemplateCache, template } from './template';

const templates = () =>
  new TemplateCache({
    db: new Kysely<Database>({ dialect: new SqliteDialect({ database: {} as never }) }),
    caps: sqliteCapabilities,
  });

const byId = template(({ db }, p: Slots<'id'>) =>
  db.selectFrom('stores').select('id').where('id', '=', p.id),
);

/** SQLite's message for a unique violation of the discount code index. */
const duplicateCode = Object.assign(
  new Error('UNIQUE constraint failed: discounts.store_id, discounts.code_lower'),
  {
    code: 'SQLITE_CONSTRAINT_UNIQUE',
  },
);

/** An executor that runs now (`runNow`) or only through `executeQuery`, recording which. */
function executor(options: { now: boolean; fail?: Error }): StatementExecutor & { calls: string[] } {
  const calls: string[] = [];
  const result = <R>(compiled: CompiledQuery<R>): QueryResult<R> => {
    if (options.fail) throw options.fail;
    return { rows: [{ id: compiled.parameters[0] }] as R[], numAffectedRows: 3n };
  };
  return {
    calls,
    executeQuery: async (compiled) => {
      calls.push('executeQuery');
      return result(compiled);
    },
    runNow: (compiled) => {
      calls.push('runNow');
      return options.now ? result(compiled) : undefined;
    },
  };
}

describe('QueryRunner', () => {
  it('runs at once when the executor can (runNow: one call, no executeQuery), else through executeQuery; same results', async () => {
    for (const now of [true, false]) {
      const db = executor({ now });
      const q = new QueryRunner(db, templates());
      expect(await q.rows(byId, { id: 's1' })).toEqual([{ id: 's1' }]);
      expect(await q.first(byId, { id: 's2' })).toEqual({ id: 's2' });
      expect(await q.affected(byId, { id: 's3' })).toBe(3);
      expect(db.calls).toEqual(
        now ? ['runNow', 'runNow', 'runNow'] : Array(3).fill(['runNow', 'executeQuery']).flat(),
      );
    }
  });

  it('a statement that fails at once is a rejected promise (never a synchronous throw), translated like any other (unique code index → 409 duplicate_code)', async () => {
    for (const now of [true, false]) {
      const q = new QueryRunner(executor({ now, fail: duplicateCode }), templates());
      for (const run of [
        () => q.rows(byId, { id: 'x' }),
        () => q.first(byId, { id: 'x' }),
        () => q.affected(byId, { id: 'x' }),
      ]) {
        let promise: Promise<unknown> | undefined;
        expect(() => {
          promise = run();
        }).not.toThrow();
        const error = await promise?.catch((e: unknown) => e);
        expect(CommerceError.is(error)).toBe(true);
        expect(error).toMatchObject({ code: 'duplicate_code', param: 'code' });
      }
    }
  });
});
