/** The storage engines the HTTP API suites run on (harness.ts `describeApi`). */
export type Target = 'sqlite' | 'postgres' | 'mariadb';

const ALL: readonly Target[] = ['sqlite', 'postgres', 'mariadb'];

/**
 * The targets of this run: `CARTWRIGHT_API_TARGETS` (comma-separated, e.g. `sqlite,postgres`),
 * default all three. Read by the harness and by the global setup (which starts MariaDB only when
 * it is a target).
 */
export const API_TARGETS: Target[] = (process.env.CARTWRIGHT_API_TARGETS ?? ALL.join(','))
  .split(',')
  .map((t) => t.trim())
  .filter((t): t is Target => (ALL as readonly string[]).includes(t));
