import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';
import { loadDriver, requireHere } from '../load-driver';
import type { PostgresTraffic, QueryConfigOf } from './pipelined-transaction';

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
 * Names statements whose text the storage built from templates (`isTemplateSql`), so they run
 * as named prepared statements and each connection parses them once; builds the pg query config
 * (with the type parsers above) of any statement.
 */
export function queryConfigs(isTemplateSql: (sql: string) => boolean): QueryConfigOf {
  const names = new Map<string, string>();
  return (sql, parameters) => {
    const config: pg.QueryConfig = {
      text: sql,
      values: parameters as unknown[],
      types: types as pg.CustomTypesConfig,
    };
    if (isTemplateSql(sql)) {
      let name = names.get(sql);
      if (!name) {
        name = `cartwright_${names.size + 1}`;
        names.set(sql, name);
      }
      config.name = name;
    }
    return config;
  };
}

/**
 * Adapts a pg Pool to Kysely (what runs outside the storage's own transactions: reads,
 * migrations), with the query configs of {@link queryConfigs}; every statement is one round
 * trip of `traffic`. Kysely's `destroy` calls `options.end`.
 */
export function wrapPool(
  pool: pg.Pool,
  options: { end: () => Promise<void>; configOf: QueryConfigOf; traffic: PostgresTraffic },
): PostgresPool {
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const { configOf, traffic } = options;

  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    const query = async <R>(
      sql: string,
      parameters: ReadonlyArray<unknown>,
    ): Promise<PostgresQueryResult<R>> => {
      traffic.statements++;
      traffic.roundTrips++;
      return (await client.query(configOf(sql, parameters))) as unknown as PostgresQueryResult<R>;
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
    end: () => options.end(),
  };
}
