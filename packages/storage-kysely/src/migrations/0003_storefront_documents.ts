import type { Scope } from '@cartwright/core';
import { storefrontTemplate } from '@cartwright/core/internal';
import { type Kysely, type Migration, sql } from 'kysely';
import type { DialectCapabilities } from '../dialects/dialect-capabilities';
import { postgresCapabilities } from '../dialects/postgres/postgres-capabilities';
import { sqliteCapabilities } from '../dialects/sqlite/sqlite-capabilities';
import {
  decodeProductDocument,
  parseDocument,
  productDocumentSql,
  variantPurchaseUpdateSql,
} from '../repositories/catalog-documents';
import { columnDataType, type SchemaDialect } from './column-types';

/**
 * Storefront documents: `product_documents.storefront` holds each product's storefront
 * JSON template (core catalog/storefront-product-text.ts: the storefront wire text with
 * each shown variant's stock left out as a slot), so that the storefront catalog serves pages by
 * filling stored text with the live stock instead of rebuilding and re-serialising every
 * product. The product repository renders it in the transaction of every write that changes a
 * product's storefront view. The stock of a product's variants is read through the new index
 * `inventory_items_product_idx (store_id, mode, product_id)` (one range per product; inventory
 * updates never change its columns, so checkouts do not write it).
 *
 * And for purchases: `product_variants.option_value_names` and `image_url` keep what a cart line
 * shows of a variant (its option value names, its image), rewritten by the repository with every
 * catalog write to its product, so that `getPurchasable` (every cart change and checkout) reads
 * them with the variant row instead of looking them up in the option values and images.
 *
 * This migration adds the (nullable) columns and the index, computes the variants' names and
 * image urls in SQL, and renders the templates of the existing live products from their
 * aggregates, in key order, in chunks. (A later change of the storefront wire shape needs a
 * migration that renders them again; a product without a template is still served correctly,
 * from its aggregate.)
 */

/** Products rendered per chunk of the backfill. */
const CHUNK = 200;

interface DocumentRow {
  store_id: string;
  mode: string;
  id: string;
  doc: unknown;
}

/** Renders the storefront template of every live product that has a catalog document. */
async function backfill(db: Kysely<unknown>, dialect: SchemaDialect): Promise<void> {
  const caps: DialectCapabilities = dialect === 'postgres' ? postgresCapabilities : sqliteCapabilities;
  const doc = sql.raw(productDocumentSql(dialect, 'p'));
  let after: { store_id: string; mode: string; id: string } | undefined;
  for (;;) {
    const cursor = after
      ? sql`and (p.store_id, p.mode, p.id) > (${after.store_id}, ${after.mode}, ${after.id})`
      : sql``;
    const { rows } = await sql<DocumentRow>`select p.store_id, p.mode, p.id, ${doc} as doc from products p
      where p.deleted_at is null ${cursor} order by p.store_id, p.mode, p.id limit ${CHUNK}`.execute(db);
    for (const row of rows) {
      if (row.doc === null || row.doc === undefined) continue;
      const scope = { store_id: row.store_id, mode: row.mode } as Scope;
      const { template } = storefrontTemplate(
        decodeProductDocument(scope, row.id, parseDocument(row.doc), caps),
      );
      await sql`update product_documents set storefront = ${template}
        where store_id = ${row.store_id} and mode = ${row.mode} and product_id = ${row.id}`.execute(db);
    }
    if (rows.length < CHUNK) return;
    after = rows[rows.length - 1];
  }
}

export function storefrontDocumentsMigration(dialect: SchemaDialect): Migration {
  return {
    async up(db) {
      await db.schema.alterTable('product_documents').addColumn('storefront', 'text').execute();
      await db.schema
        .createIndex('inventory_items_product_idx')
        .on('inventory_items')
        .columns(['store_id', 'mode', 'product_id'])
        .execute();
      await db.schema
        .alterTable('product_variants')
        .addColumn('option_value_names', columnDataType(dialect, 'json'))
        .execute();
      await db.schema
        .alterTable('product_variants')
        .addColumn('image_url', columnDataType(dialect, 'text'))
        .execute();
      await sql.raw(variantPurchaseUpdateSql(dialect, 'true')).execute(db);
      await backfill(db, dialect);
    },
    async down(db) {
      await db.schema.alterTable('product_variants').dropColumn('image_url').execute();
      await db.schema.alterTable('product_variants').dropColumn('option_value_names').execute();
      await db.schema.dropIndex('inventory_items_product_idx').ifExists().execute();
      await db.schema.alterTable('product_documents').dropColumn('storefront').execute();
    },
  };
}
