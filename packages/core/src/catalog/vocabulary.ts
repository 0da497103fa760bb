/** The words of this context live in the vocabulary layer, below the storage port (vocabulary/catalog.ts). */
export type { ProductStatus, ProductType } from '../vocabulary/catalog';
