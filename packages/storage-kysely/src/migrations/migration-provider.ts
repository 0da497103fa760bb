import type { Migration, MigrationProvider } from 'kysely';
import { initialMigration } from './0001_initial';
import { catalogReadPathMigration } from './0002_catalog_read_path';
import { storefrontDocumentsMigration } from './0003_storefront_documents';
import { checkoutWritePathMigration } from './0004_checkout_write_path';
import { storefrontRevisionsMigration } from './0005_storefront_revisions';
import { storefrontPageIndexesMigration } from './0006_storefront_page_indexes';
import { refundReconciliationMigration } from './0007_refund_reconciliation';
import { catalogVersionsMigration } from './0008_catalog_versions';
import { inventoryLowStockMigration } from './0009_inventory_low_stock';
import { idempotencyCallersMigration } from './0010_idempotency_callers';
import { cartWriteGuardsMigration } from './0011_cart_write_guards';
import { orderKeyWebhookFixesMigration } from './0012_order_key_webhook_fixes';
import { webhookSecretRotationMigration } from './0013_webhook_secret_rotation';
import { rateLimitCountersMigration } from './0014_rate_limit_counters';
import { customerAccountsMigration } from './0015_customer_accounts';
import { refundPaymentColumnsMigration } from './0016_refund_payment_columns';
import { storefrontReadModelMigration } from './0017_storefront_read_model';
import { clientFieldsMigration } from './0018_client_fields';
import { adminProductUpdatedSortMigration } from './0019_admin_product_updated_sort';
import { inventoryLevelVersionMigration } from './0020_inventory_level_version';
import { catalogVersionTriggersMigration } from './0021_catalog_version_triggers';
import { categoriesMigration } from './0022_categories';
import { collectionsMigration } from './0023_collections';
import { productRelevanceMigration } from './0024_product_relevance';
import { localesTranslationsMigration } from './0025_locales_translations';
import { returnsMigration } from './0026_returns';
import { fulfillmentTrackingMigration } from './0027_fulfillment_tracking';
import { membersStaffSessionsMigration } from './0028_members_staff_sessions';
import { dashboardApiLogsMigration } from './0029_dashboard_api_logs';
import { regionsMigration } from './0030_regions';
import { regionProductPricesMigration } from './0031_region_product_prices';
import { revenueBucketsMigration } from './0032_revenue_buckets';
import type { SchemaDialect } from './column-types';

/**
 * Every migration, in code (no filesystem scanning: the package is bundled with tsup).
 * Names sort in application order; append new ones as `0002_<what>`.
 */
export function migrationsFor(dialect: SchemaDialect): Record<string, Migration> {
  return {
    '0001_initial': initialMigration(dialect),
    '0002_catalog_read_path': catalogReadPathMigration(dialect),
    '0003_storefront_documents': storefrontDocumentsMigration(dialect),
    '0004_checkout_write_path': checkoutWritePathMigration(dialect),
    '0005_storefront_revisions': storefrontRevisionsMigration(dialect),
    '0006_storefront_page_indexes': storefrontPageIndexesMigration(dialect),
    '0007_refund_reconciliation': refundReconciliationMigration(dialect),
    '0008_catalog_versions': catalogVersionsMigration(dialect),
    '0009_inventory_low_stock': inventoryLowStockMigration(dialect),
    '0010_idempotency_callers': idempotencyCallersMigration(dialect),
    '0011_cart_write_guards': cartWriteGuardsMigration(dialect),
    '0012_order_key_webhook_fixes': orderKeyWebhookFixesMigration(dialect),
    '0013_webhook_secret_rotation': webhookSecretRotationMigration(dialect),
    '0014_rate_limit_counters': rateLimitCountersMigration(dialect),
    '0015_customer_accounts': customerAccountsMigration(dialect),
    '0016_refund_payment_columns': refundPaymentColumnsMigration(dialect),
    '0017_storefront_read_model': storefrontReadModelMigration(dialect),
    '0018_client_fields': clientFieldsMigration(dialect),
    '0019_admin_product_updated_sort': adminProductUpdatedSortMigration(dialect),
    '0020_inventory_level_version': inventoryLevelVersionMigration(dialect),
    '0021_catalog_version_triggers': catalogVersionTriggersMigration(dialect),
    '0022_categories': categoriesMigration(dialect),
    '0023_collections': collectionsMigration(dialect),
    '0024_product_relevance': productRelevanceMigration(dialect),
    '0025_locales_translations': localesTranslationsMigration(dialect),
    '0026_returns': returnsMigration(dialect),
    '0027_fulfillment_tracking': fulfillmentTrackingMigration(dialect),
    '0028_members_staff_sessions': membersStaffSessionsMigration(dialect),
    '0029_dashboard_api_logs': dashboardApiLogsMigration(dialect),
    '0030_regions': regionsMigration(dialect),
    '0031_region_product_prices': regionProductPricesMigration(dialect),
    '0032_revenue_buckets': revenueBucketsMigration(dialect),
  };
}

/** Kysely's Migrator reads migrations through this provider. */
export function createMigrationProvider(dialect: SchemaDialect): MigrationProvider {
  return { getMigrations: async () => migrationsFor(dialect) };
}
