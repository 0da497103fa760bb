/**
 * The words of the catalog: the values core's rules decide on. They sit below the storage port,
 * whose records (ports/storage/records.ts) use them; the context re-exports them.
 */

export type ProductType = 'physical' | 'digital' | 'service' | 'bundle';

export type ProductStatus = 'draft' | 'active' | 'archived';
