export { SqliteStorage, type SqliteStorageOptions, sqliteStorage } from './dialects/sqlite/sqlite-storage';
