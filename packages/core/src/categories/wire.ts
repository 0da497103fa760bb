import type { CategoryRecord } from '../ports/storage';
import { iso } from '../shared/wire-format';
import type { Category } from './schemas';

/** The Category resource (decisions §17), with the subtree given (lists and events: none). */
export function categoryToWire(record: CategoryRecord, children: Category[] = []): Category {
  return {
    id: record.id,
    name: record.name,
    slug: record.slug,
    description: record.description,
    parent_id: record.parent_id,
    position: record.position,
    children,
    metadata: record.metadata,
    created_at: iso(record.created_at),
    updated_at: iso(record.updated_at),
  };
}
