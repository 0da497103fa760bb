import { type Migration, sql } from 'kysely';
import type { SchemaDialect } from './column-types';

/**
 * Shared rate-limit counters (docs/contract.md#rate-limits): `rate_limit_counters (bucket,
 * window_start, hits)`, one row per bucket (a limit and a client address), counting the requests
 * of its current fixed window. Every process on the database counts in the same rows, so the
 * strict per-address limits (failed authentication, guest order look-ups, sign-in) hold across
 * processes. Frozen once released: never import live code into a migration.
 *
 * PostgreSQL: UNLOGGED — counters are not worth a WAL write each, and after a crash they start
 * over empty, which only hands a client a fresh window. The `window_start` index serves pruning.
 */
export function rateLimitCountersMigration(dialect: SchemaDialect): Migration {
  return {
    async up(db) {
      if (dialect === 'sqlite') {
        await sql`create table rate_limit_counters (
          bucket text not null primary key, window_start integer not null, hits integer not null
        ) strict, without rowid`.execute(db);
      } else if (dialect === 'mysql') {
        await sql`create table rate_limit_counters (
          bucket varchar(768) character set utf8mb4 collate utf8mb4_bin not null primary key,
          window_start bigint not null, hits integer not null
        )`.execute(db);
      } else {
        await sql`create unlogged table rate_limit_counters (
          bucket text collate "C" not null primary key, window_start bigint not null, hits integer not null
        )`.execute(db);
      }
      await sql`create index rate_limit_counters_window_idx on rate_limit_counters (window_start)`.execute(
        db,
      );
    },
    async down(db) {
      await sql`drop table rate_limit_counters`.execute(db);
    },
  };
}
