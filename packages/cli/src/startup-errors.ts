import { ConfigError } from './config';
import { describeDatabase } from './open-storage';

/**
 * Node's, PostgreSQL's, MariaDB's (mysql2) and SQLite's error codes met while starting, with what
 * to tell the operator.
 */
const DATABASE_HINTS: Record<string, string> = {
  ECONNREFUSED: 'nothing accepts connections there — is the server running, and on that port?',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name does not resolve (DNS lookup failed)',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  '28P01': 'password authentication failed',
  '28000': 'the server refused this user',
  '3D000': 'the database does not exist (create it first)',
  ER_ACCESS_DENIED_ERROR: 'access denied: wrong user or password',
  ER_DBACCESS_DENIED_ERROR: 'this user may not use that database',
  ER_HOST_NOT_PRIVILEGED: 'the server does not accept connections from this host',
  ER_BAD_DB_ERROR: 'the database does not exist (create it first)',
  SQLITE_CANTOPEN: 'the SQLite file cannot be opened (check the folder and its permissions)',
  SQLITE_NOTADB: 'the file is not a SQLite database',
  SQLITE_READONLY: 'the SQLite file is read-only',
  EACCES: 'permission denied',
};

/** Every error in a chain of `cause`s and `AggregateError`s, outermost first. */
function chain(error: unknown): unknown[] {
  const out: unknown[] = [];
  const queue = [error];
  while (queue.length > 0 && out.length < 20) {
    const next = queue.shift();
    if (next === undefined || next === null || out.includes(next)) continue;
    out.push(next);
    if (next instanceof AggregateError) queue.push(...next.errors);
    if (next instanceof Error && next.cause !== undefined) queue.push(next.cause);
  }
  return out;
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * A failure to open or migrate the database, as one line naming the database (password hidden)
 * and what went wrong, instead of a stack headed `Migration … failed`. Unknown failures are
 * returned as they are.
 */
export function explainDatabaseError(error: unknown, databaseUrl: string): unknown {
  for (const link of chain(error)) {
    const code = codeOf(link);
    const hint = code === undefined ? undefined : DATABASE_HINTS[code];
    if (hint !== undefined) {
      return new ConfigError(`cannot use the database ${describeDatabase(databaseUrl)}: ${hint} (${code})`);
    }
  }
  return error;
}

/** A failure to listen on HOST:PORT, as one line with what to change. */
export function explainListenError(error: unknown, host: string, port: number): unknown {
  const code = codeOf(error);
  if (code === 'EADDRINUSE') {
    return new ConfigError(
      `${host}:${port} is already in use: stop the other process or set PORT to a free port`,
    );
  }
  if (code === 'EACCES') {
    return new ConfigError(
      `not allowed to listen on ${host}:${port}: choose a PORT above 1023 or run with the right permissions`,
    );
  }
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
    return new ConfigError(`cannot listen on HOST ${host}: no such address on this machine`);
  }
  return error;
}
