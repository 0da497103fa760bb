import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';
import { loadDriver, requireHere } from '../load-driver';

const INT8_OID = 20;

let driver: typeof pg | undefined;
/** pg, loaded when the first storage is created (an optional peer dependency). */
export function pgDriver(): typeof pg {
  driver ??= loadDriver<typeof pg>('pg', () =>
    typeof require === 'function' ? require('pg') : requireHere('pg'),
  );
  return driver;
}

/**
 * Type parsers for this storage's queries only (never `pg.types.setTypeParser`, which would
 * change every pg user in the process): BIGINT (epoch ms, minor units, counts) as a JS number —
 * all such values stay below 2^53 — and pg's defaults otherwise (jsonb parsed, booleans, floats).
 */
const types = {
  getTypeParser: (oid: number, format?: string) =>
    oid === INT8_OID
      ? (value: string) => Number(value)
      : pgDriver().types.getTypeParser(oid, format as 'text'),
};

/**
 * Adapts a pg Pool to Kysely: every query carries the type parsers above, and statements whose
 * text the storage built from templates (`isTemplateSql`) run as named prepared statements, so
 * each connection parses them once. The pool is ended on close only when the storage created it.
 */
export function wrapPool(
  pool: pg.Pool,
  options: { owned: boolean; isTemplateSql: (sql: string) => boolean },
): PostgresPool {
  const names = new Map<string, string>();
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const nameOf = (sql: string): string | undefined => {
    if (!options.isTemplateSql(sql)) return undefined;
    let name = names.get(sql);
    if (!name) {
      name = `cartwright_${names.size + 1}`;
      names.set(sql, name);
    }
    return name;
  };

  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    const query = async <R>(
      sql: string,
      parameters: ReadonlyArray<unknown>,
    ): Promise<PostgresQueryResult<R>> => {
      const name = nameOf(sql);
      const config: pg.QueryConfig = {
        text: sql,
        values: parameters as unknown[],
        types: types as pg.CustomTypesConfig,
      };
      if (name) config.name = name;
      return (await client.query(config)) as unknown as PostgresQueryResult<R>;
    };
    return {
      query: query as PostgresPoolClient['query'],
      release: () => client.release(),
    };
  };

  return {
    connect: async () => {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      if (!wrapper) {
        wrapper = wrap(client);
        wrappers.set(client, wrapper);
      }
      return wrapper;
    },
    end: async () => {
      if (options.owned) await pool.end();
    },
  };
}
