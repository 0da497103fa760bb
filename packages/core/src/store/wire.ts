import type { OrganizationRecord, StoreRecord } from '../ports/storage';
import { iso } from '../shared/wire-format';

export function storeToWire(store: StoreRecord) {
  return {
    id: store.id,
    organization_id: store.organization_id,
    name: store.name,
    currency: store.currency,
    timezone: store.timezone,
    prices_include_tax: store.prices_include_tax,
    tax_rate: store.tax_rate,
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
