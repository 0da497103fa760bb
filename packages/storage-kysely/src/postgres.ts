export {
  PostgresStorage,
  type PostgresStorageOptions,
  postgresStorage,
} from './dialects/postgres/postgres-storage';
