import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, join } from 'node:path';

/**
 * What the throwaway database servers (postgres-server.ts, mariadb-server.ts) share: the
 * unprivileged system user a server runs as when the tests run as root, and a free loopback port.
 */

/** Creates the system user `name` if it does not exist (another run may create it concurrently). */
export function ensureSystemUser(name: string): void {
  try {
    execFileSync('id', ['-u', name], { stdio: 'ignore' });
    return;
  } catch {
    // missing: create it below
  }
  try {
    execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', name], {
      stdio: 'ignore',
    });
  } catch (error) {
    try {
      execFileSync('id', ['-u', name], { stdio: 'ignore' });
    } catch {
      throw error;
    }
  }
}

/** A TCP port free on 127.0.0.1 at the time of the call. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** The installed MariaDB (or MySQL) server and data-directory programs, on PATH, /usr/sbin, /usr/bin. */
export function findMariadbPrograms(): { server: string; installDb: string } | undefined {
  const server = findProgram(['mariadbd', 'mysqld']);
  const installDb = findProgram(['mariadb-install-db', 'mysql_install_db']);
  return server && installDb ? { server, installDb } : undefined;
}

/** `11.8.3` from `mariadbd  Ver 11.8.3-MariaDB-0+deb13u1 for debian-linux-gnu …`; '' when it cannot tell. */
export function mariadbVersion(server: string): string {
  try {
    const out = execFileSync(server, ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString();
    return /Ver\s+(\d+\.\d+(?:\.\d+)?)/.exec(out)?.[1] ?? '';
  } catch {
    return '';
  }
}

function findProgram(names: readonly string[]): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/bin', '/usr/local/bin'];
  for (const name of names) {
    for (const dir of dirs) {
      if (dir && existsSync(join(dir, name))) return join(dir, name);
    }
  }
  return undefined;
}
