import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Migrations are frozen: a released migration must do the same thing whatever today's code is,
 * so a migration file imports nothing but Kysely and the (equally frozen) column types. Any
 * constant, SQL or shape it needs is written out in the file itself. Tests and the test support
 * modules (migration-test-engines.ts, schema-catalog.ts) are exempt; `migration-provider.ts` only lists the migrations.
 */
const ALLOWED = new Set(['kysely', './column-types']);
const EXEMPT = new Set(['migration-provider.ts', 'migration-test-engines.ts', 'schema-catalog.ts']);
const DIRECTORY = fileURLToPath(new URL('.', import.meta.url));

/**
 * Every module specifier of `source`: `import … from`, `import '…'`, `export … from`, and
 * dynamic `import(…)` / `require(…)` (a non-literal argument is reported as `<dynamic>`).
 */
export function moduleSpecifiers(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
  const found: string[] = [];
  const patterns = [
    /\b(?:import|export)\s+(?:type\s+)?[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\b(?:import|require)\s*\(\s*(?:['"`]([^'"`$]+)['"`]\s*\)|([^)'"`]))/g,
  ];
  for (const pattern of patterns) {
    for (const match of code.matchAll(pattern)) found.push(match[1] ?? '<dynamic>');
  }
  return found;
}

const migrationFiles = readdirSync(DIRECTORY)
  .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && !EXEMPT.has(name))
  .sort();

describe('frozen migrations', () => {
  it('finds the migrations and the column types', () => {
    expect(migrationFiles).toContain('0001_initial.ts');
    expect(migrationFiles).toContain('column-types.ts');
    expect(migrationFiles.length).toBeGreaterThanOrEqual(16);
  });

  it('no migration (nor column-types.ts) imports anything but kysely and ./column-types', () => {
    const offending = Object.fromEntries(
      migrationFiles
        .map((name): [string, string[]] => [
          name,
          moduleSpecifiers(readFileSync(`${DIRECTORY}${name}`, 'utf8')).filter(
            (specifier) => !ALLOWED.has(specifier),
          ),
        ])
        .filter(([, specifiers]) => specifiers.length > 0),
    );
    expect(offending).toEqual({});
  });

  it('column-types.ts imports only kysely', () => {
    expect(moduleSpecifiers(readFileSync(`${DIRECTORY}column-types.ts`, 'utf8'))).toEqual(['kysely']);
  });

  it('the scan sees every form of import (so that it can fail)', () => {
    const source = [
      "import { sql } from 'kysely';",
      "import type { Scope } from '@cartwright/core';",
      'import {\n  a,\n  b,\n} from "../repositories/catalog-documents";',
      "import '../side-effect';",
      "export { x } from './column-types';",
      "export * from '../schema/sort-keys';",
      "const m = await import('../live');",
      'const n = await import(name);',
      "const r = require('node:fs');",
      "// import { gone } from './commented';",
      "/* import { gone } from './commented-block'; */",
    ].join('\n');
    expect(moduleSpecifiers(source).sort()).toEqual(
      [
        'kysely',
        '@cartwright/core',
        '../repositories/catalog-documents',
        '../side-effect',
        './column-types',
        '../schema/sort-keys',
        '../live',
        '<dynamic>',
        'node:fs',
      ].sort(),
    );
  });
});
