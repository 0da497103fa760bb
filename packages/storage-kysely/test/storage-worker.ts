import { serveWorkerTask } from '@cartwright/storage-conformance/multi-process';
import { postgresStorage } from '../src/postgres';
import { sqliteStorage } from '../src/sqlite';

/**
 * A worker process of the multi-process conformance tests: opens a storage on the database named
 * in CARTWRIGHT_WORKER_TARGET and serves one task (see storage-conformance/src/multi-process.ts).
 */
type Target = { kind: 'sqlite'; filename: string } | { kind: 'postgres'; url: string };

const target = JSON.parse(process.env.CARTWRIGHT_WORKER_TARGET ?? 'null') as Target | null;
if (!target) throw new Error('CARTWRIGHT_WORKER_TARGET is not set');

await serveWorkerTask(async () =>
  target.kind === 'sqlite'
    ? sqliteStorage({ filename: target.filename })
    : postgresStorage({ connectionString: target.url, max: 8 }),
);
