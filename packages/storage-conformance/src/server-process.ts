import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';

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
