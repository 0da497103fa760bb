import { type Kysely, type Migration, sql } from 'kysely';
import { columnDataType, type SchemaDialect } from './column-types';

/**
 * `sort=relevance` on the storefront product list (decisions §17): `products.name_words` (text,
 * nullable), the lower-cased name with U+0001 after every character that is not a letter, mark
 * or number, behind a leading U+0001 (core's `nameWordsText`, catalog/relevance.ts). The
 * product repository writes it with `name_lower`; it contains U+0001 followed by `q` marked the
 * same way exactly when `q` starts a word of the name, so no engine has to know what a letter is.
 * Frozen once released: never import live code into a migration (the marking is written out
 * below, as it was when this migration was written).
 *
 * Existing products are filled here, 500 per statement. No index: a relevance page reads every
 * match of `q` as the `q` list's COUNT already does (a `LIKE '%…%'`, which no B-tree serves; and
 * pg_trgm is an extension a migration cannot assume). Measured with bench/src/relevance-bench.ts
 * over 100,000 products: 1.0-1.4x the `q` list's cost on SQLite, PostgreSQL and MariaDB for
 * realistic searches (docs/organising-the-catalog.md#search-and-relevance).
 *
 * `down` drops the column.
 */
export function productRelevanceMigration(dialect: SchemaDialect): Migration {
  return {
    async up(db) {
      await db.schema
        .alterTable('products')
        .addColumn('name_words', columnDataType(dialect, 'text'))
        .execute();
      await fillNameWords(db);
    },
    async down(db) {
      await db.schema.alterTable('products').dropColumn('name_words').execute();
    },
  };
}

const MARK = '\u0001';
const WORD_CHARACTER = /[\p{L}\p{M}\p{N}]/u;

/** U+0001, then the lower-cased name with U+0001 after each character that is not a word character. */
function nameWords(nameLower: string): string {
  let out = MARK;
  for (const char of nameLower) out += WORD_CHARACTER.test(char) ? char : char + MARK;
  return out;
}

const BATCH = 500;

async function fillNameWords(db: Kysely<unknown>): Promise<void> {
  for (;;) {
    const { rows } = await sql<{ store_id: string; mode: string; id: string; name_lower: string }>`
      select store_id, mode, id, name_lower from products where name_words is null
      order by store_id, mode, id limit ${BATCH}`.execute(db);
    if (rows.length === 0) return;
    // One statement per batch: `case` over the batch's keys (an id in another scope keeps its value).
    const cases = sql.join(
      rows.map(
        (row) =>
          sql`when store_id = ${row.store_id} and mode = ${row.mode} and id = ${row.id} then ${nameWords(row.name_lower)}`,
      ),
      sql` `,
    );
    const ids = sql.join(rows.map((row) => sql`${row.id}`));
    await sql`update products set name_words = case ${cases} else name_words end
      where id in (${ids})`.execute(db);
  }
}
