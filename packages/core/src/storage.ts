/**
 * `@cartwright/core/storage`: the storage port a database adapter implements — `Storage`, the
 * repositories it hands to a transaction, and their records — plus what an adapter needs of
 * core to implement it. `@cartwright/storage-kysely` implements it for SQLite and PostgreSQL;
 * `@cartwright/storage-conformance` is the test suite every adapter must pass.
 */

export type * from './ports/storage';
export { CommerceError, type ErrorCode } from './shared/errors';
