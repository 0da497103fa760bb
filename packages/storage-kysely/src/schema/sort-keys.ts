/**
 * Sort expressions backed by expression indexes (0001_initial). The index expression and the
 * query's ORDER BY must be written identically for the engines to use the index: the migration
 * keeps a frozen copy (migrations import no live code) and the schema snapshot test checks that
 * the migrated index is written with these constants; changing one means a new migration.
 *
 * A product without a representative price sorts last in both orders (docs/contract.md#representative-price): ascending
 * sorts on `coalesce(price, 2^53 − 1)`, descending on `coalesce(price, −1)`.
 */
export const PRICE_ASC_KEY = 'coalesce(price, 9007199254740991)';
export const PRICE_DESC_KEY = 'coalesce(price, -1)';
