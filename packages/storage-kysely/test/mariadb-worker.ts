import { mysqlStorage } from '../src/mysql';

/**
 * The adapter module of the MariaDB multi-process conformance cases (`nodeWorkerProcesses({
 * module })`): every worker process opens a storage on the database `target.url` names.
 */
export default function openStorage(target: { url: string }) {
  return mysqlStorage({ connectionString: target.url, max: 8 });
}
