export {
  MysqlStorage,
  type MysqlStorageOptions,
  mysqlStorage,
} from './dialects/mysql/mysql-storage';
