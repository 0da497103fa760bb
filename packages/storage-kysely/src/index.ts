/**
 * @cartwright/storage-kysely — the storage port of @cartwright/core on Kysely.
 * Engines live in subpaths so that each driver stays optional:
 * `@cartwright/storage-kysely/sqlite` (better-sqlite3) and `@cartwright/storage-kysely/postgres` (pg).
 */
export type { DialectCapabilities } from './dialects/dialect-capabilities';
export { KyselyStorage } from './kysely-storage';
export type { SchemaDialect } from './migrations/column-types';
export { createMigrationProvider, migrationsFor } from './migrations/migration-provider';
export type { Database, TableName } from './schema/database';
export { TABLE_COLUMNS } from './schema/table-columns';
export { translateDbError, UNIQUE_INDEXES } from './translate-db-error';
