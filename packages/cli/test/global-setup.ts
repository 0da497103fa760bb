import type { TestProject } from 'vitest/node';
import { testRun } from '../../storage-conformance/src/test-engines';
import { provideServers } from '../../storage-kysely/test/global-setup';

/**
 * One PostgreSQL and one MariaDB per vitest run for this project, each when it is a CLI target of
 * the run (test-engines.ts `matrix`; storage-kysely/test/global-setup.ts).
 */
export default function setup(project: TestProject): Promise<() => Promise<void>> {
  const { matrix } = testRun();
  return provideServers(project, {
    postgres: matrix.includes('postgres'),
    mariadb: matrix.includes('mariadb'),
  });
}
