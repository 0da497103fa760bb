/**
 * The words of the catalog: the values core's rules decide on. The storage records use them
 * (ports/storage/records.ts imports them from here), not the reverse.
 */

export type ProductType = 'physical' | 'digital' | 'service' | 'bundle';

export type ProductStatus = 'draft' | 'active' | 'archived';
