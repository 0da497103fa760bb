import { testRun } from '../../../../storage-conformance/src/test-engines';

/** The storage engines the HTTP API suites run on (harness.ts `describeApi`). */
export type Target = 'sqlite' | 'postgres' | 'mariadb';

/**
 * The targets of this run: the `matrix` of test-engines.ts — SQLite in the fast default run
 * (`pnpm test`), every engine of the run in the full one (`pnpm test:all`, CI), or
 * `CARTWRIGHT_API_TARGETS` (comma-separated, e.g. `sqlite,postgres`). Read by the harness, by the
 * suites that loop over engines themselves and by the global setup (which starts the servers
 * of these targets only).
 */
export const API_TARGETS: Target[] = testRun().matrix;
