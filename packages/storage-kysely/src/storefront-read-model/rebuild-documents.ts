import { type Kysely, sql } from 'kysely';
import type { DialectCapabilities } from '../dialects/dialect-capabilities';
import { CATALOG_DOCUMENT_VERSION, documentUpsertSql, variantPurchaseUpdateSql } from './catalog-documents';

type Dialect = DialectCapabilities['dialect'];

/** Products rebuilt per batch (one upsert and one variant update per batch). */
export const REBUILD_BATCH = 500;

interface StaleRow {
  store_id: string;
  mode: string;
  id: string;
}

/**
 * Rebuilds derived catalog data the application owns, at `storage.migrate()` after the
 * migrator: every live product whose `product_documents` row is missing or carries another
 * `format_version` than {@link CATALOG_DOCUMENT_VERSION} gets its document rewritten, and its
 * live variants' kept option value names and image urls (`variantPurchaseUpdateSql`) with it,
 * in batches of {@link REBUILD_BATCH} products in key order. A migration never renders these
 * (it would have to import today's code); an up-to-date database costs one indexed scan that
 * finds nothing. Each batch is its own statement pair: a rebuild interrupted half-way resumes
 * at the next `migrate()`, and concurrent writers meanwhile write current documents anyway.
 *
 * Returns the number of products rebuilt.
 */
export async function rebuildCatalogDocuments(db: Kysely<unknown>, dialect: Dialect): Promise<number> {
  // MySQL/MariaDB: not written yet (row-value IN over VALUES and the upsert differ there).
  if (dialect !== 'sqlite' && dialect !== 'postgres') return 0;
  let rebuilt = 0;
  let after: StaleRow | undefined;
  for (;;) {
    const cursor = after
      ? sql`and (p.store_id, p.mode, p.id) > (${after.store_id}, ${after.mode}, ${after.id})`
      : sql``;
    const { rows } = await sql<StaleRow>`select p.store_id, p.mode, p.id from products p
      left join product_documents d on d.store_id = p.store_id and d.mode = p.mode and d.product_id = p.id
      where p.deleted_at is null and (d.product_id is null or d.format_version <> ${CATALOG_DOCUMENT_VERSION})
      ${cursor}
      order by p.store_id, p.mode, p.id limit ${REBUILD_BATCH}`.execute(db);
    if (rows.length === 0) return rebuilt;
    // Ids of one batch may span scopes: match (store, mode, id) triples.
    const triples = sql.join(rows.map((row) => sql`(${row.store_id}, ${row.mode}, ${row.id})`));
    const [docHead, docTail] = documentUpsertSql(dialect, '\u0000', CATALOG_DOCUMENT_VERSION).split(
      '\u0000',
    ) as [string, string];
    await sql`${sql.raw(docHead)}(p.store_id, p.mode, p.id) in (values ${triples})${sql.raw(docTail)}`.execute(
      db,
    );
    const [varHead, varTail] = variantPurchaseUpdateSql(dialect, '\u0000').split('\u0000') as [
      string,
      string,
    ];
    await sql`${sql.raw(varHead)}(v.store_id, v.mode, v.product_id) in (values ${triples})${sql.raw(varTail)}`.execute(
      db,
    );
    rebuilt += rows.length;
    if (rows.length < REBUILD_BATCH) return rebuilt;
    after = rows[rows.length - 1];
  }
}
