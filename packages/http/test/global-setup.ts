import type { TestProject } from 'vitest/node';
import { provideServers } from '../../storage-kysely/test/global-setup';
import { API_TARGETS } from './api/support/targets';

/**
 * One PostgreSQL and one MariaDB per vitest run for the http project, each when it is one of the
 * HTTP API targets (`API_TARGETS`: test-engines.ts `matrix`), started at once; each `describeApi`
 * block then creates its own database (storage-kysely/test/global-setup.ts).
 */
export default function setup(project: TestProject): Promise<() => Promise<void>> {
  return provideServers(project, {
    postgres: API_TARGETS.includes('postgres'),
    mariadb: API_TARGETS.includes('mariadb'),
  });
}
