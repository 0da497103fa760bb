import { type Migration, sql } from 'kysely';
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
 * This migration adds the (nullable) columns and the index and computes the variants' names and
 * image urls in SQL (the statement below, frozen as released). It does not render templates:
 * they are derived data, which the application renders for every product whose document is
 * missing or of an older format when `storage.migrate()` has run the migrations (as released,
 * this migration rendered them with live core code; it no longer does, so that its effect never
 * depends on today's wire format).
 *
 * Frozen once released: never import live code into a migration.
 */

/**
 * The variants' kept option value names and image urls, as released (the product repository's
 * `variantPurchaseUpdateSql` rewrites them with every catalog write): the names of each live
 * variant's option values in `option_value_ids` order (unknown ids skipped) and its image url
 * (the first image attached to the variant, else the product's first image, by position, id).
 */
function variantPurchaseUpdate(dialect: SchemaDialect) {
  return dialect === 'sqlite'
    ? sql`update product_variants as v set
        option_value_names = (select json_group_array(ov.value order by e.key) from json_each(v.option_value_ids) e
          cross join product_option_values ov where ov.store_id = v.store_id and ov.mode = v.mode and ov.id = e.value),
        image_url = coalesce(
          (select im.url from product_images im
            where im.store_id = v.store_id and im.mode = v.mode and im.product_id = v.product_id
              and instr(im.variant_ids, '"' || v.id || '"') > 0
              and exists (select 1 from json_each(im.variant_ids) e where e.value = v.id)
            order by im.position, im.id limit 1),
          (select im.url from product_images im
            where im.store_id = v.store_id and im.mode = v.mode and im.product_id = v.product_id
            order by im.position, im.id limit 1))
      where v.deleted_at is null`
    : sql`update product_variants as v set
        option_value_names = (select jsonb_agg(ov.value order by e.ord)
          from jsonb_array_elements_text(v.option_value_ids) with ordinality as e(id, ord)
          inner join product_option_values ov on ov.store_id = v.store_id and ov.mode = v.mode and ov.id = e.id),
        image_url = coalesce(
          (select im.url from product_images im
            where im.store_id = v.store_id and im.mode = v.mode and im.product_id = v.product_id
              and im.variant_ids @> jsonb_build_array(v.id)
            order by im.position, im.id limit 1),
          (select im.url from product_images im
            where im.store_id = v.store_id and im.mode = v.mode and im.product_id = v.product_id
            order by im.position, im.id limit 1))
      where v.deleted_at is null`;
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
      // MariaDB databases start at this release, empty: no variants to compute.
      if (dialect !== 'mysql') await variantPurchaseUpdate(dialect).execute(db);
    },
    async down(db) {
      await db.schema.alterTable('product_variants').dropColumn('image_url').execute();
      await db.schema.alterTable('product_variants').dropColumn('option_value_names').execute();
      await db.schema.dropIndex('inventory_items_product_idx').ifExists().execute();
      await db.schema.alterTable('product_documents').dropColumn('storefront').execute();
    },
  };
}
