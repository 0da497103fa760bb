import type { OrganizationRecord, StoreRecord } from '../ports/storage';
import { iso } from '../shared/wire-format';

/**
 * The Store (decisions §22: with its `slug`). A store gets its slug when it is created or first
 * loaded (store-service `ensureStore` / `withSlug`), so one without is a caller's bug.
 */
export function storeToWire(store: StoreRecord) {
  const { slug } = store;
  if (slug === null) throw new Error(`storeToWire: store ${store.id} has no slug yet (give it one first)`);
  return {
    id: store.id,
    organization_id: store.organization_id,
    name: store.name,
    slug,
    currency: store.currency,
    timezone: store.timezone,
    prices_include_tax: store.prices_include_tax,
    tax_rate: store.tax_rate,
    return_window_days: store.return_window_days,
    metadata: store.metadata,
    created_at: iso(store.created_at),
    updated_at: iso(store.updated_at),
  };
}

export function organizationToWire(org: OrganizationRecord) {
  return {
    id: org.id,
    name: org.name,
    plan: org.plan,
    billing_email: org.billing_email,
    metadata: org.metadata,
    created_at: iso(org.created_at),
    updated_at: iso(org.updated_at),
  };
}
