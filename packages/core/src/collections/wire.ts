import type { CollectionRecord } from '../ports/storage';
import { iso } from '../shared/wire-format';

/**
 * The Collection resource (decisions §17): `rules` on an automatic collection, `product_ids` (the
 * members in display order) on a manual one, the other null.
 */
export function collectionToWire(record: CollectionRecord, productIds: readonly string[]) {
  return {
    id: record.id,
    name: record.name,
    slug: record.slug,
    description: record.description,
    type: record.type,
    position: record.position,
    rules: record.type === 'auto' ? record.rules : null,
    product_ids: record.type === 'manual' ? [...productIds] : null,
    metadata: record.metadata,
    created_at: iso(record.created_at),
    updated_at: iso(record.updated_at),
  };
}

export type CollectionWire = ReturnType<typeof collectionToWire>;
