import type mysql2 from 'mysql2';
import { loadDriver, requireHere } from '../load-driver';

let driver: typeof mysql2 | undefined;
/** mysql2, loaded when the first storage is created (an optional peer dependency). */
export function mysqlDriver(): typeof mysql2 {
  driver ??= loadDriver<typeof mysql2>('mysql2', () =>
    typeof require === 'function' ? require('mysql2') : requireHere('mysql2'),
  );
  return driver;
}
