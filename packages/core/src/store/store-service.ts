import type { JsonObject, OrganizationRecord, Scope, StoreRecord } from '../ports/storage';
import type { ServiceContext } from '../shared/context';
import { CommerceError } from '../shared/errors';
import { read, write } from '../shared/unit-of-work';
import { organizationToWire, storeToWire } from './wire';

export interface StoreUpdateInput {
  name?: string | undefined;
  currency?: string | undefined;
  timezone?: string | undefined;
  prices_include_tax?: boolean | undefined;
  tax_rate?: number | undefined;
  metadata?: JsonObject | undefined;
}

export interface OrganizationUpdateInput {
  name?: string | undefined;
  billing_email?: string | null | undefined;
  metadata?: JsonObject | undefined;
}

/**
 * Store and organization settings (docs/contract.md#store-settings). Settings are shared by both modes, so
 * these read the store named by the scope and ignore its mode.
 */
export function createStoreService(ctx: ServiceContext) {
  async function requireStore(scope: Scope): Promise<StoreRecord> {
    const store = await read(ctx, (tx) => tx.stores.get(scope.store_id));
    if (!store) throw new CommerceError('not_found', 'No such store');
    return store;
  }

  return {
    /**
     * Creates the organization and its store on first start (docs/contract.md#running); returns the existing
     * ones otherwise. Safe to call on every start.
     */
    async ensureStore(
      init: { name?: string; currency?: string; timezone?: string } = {},
    ): Promise<{ store: StoreRecord; organization: OrganizationRecord }> {
      return write(ctx, async ({ tx, now }) => {
        let organization = await tx.organizations.getFirst();
        if (!organization) {
          organization = {
            id: ctx.ids.next('org'),
            name: init.name ?? ctx.config.default_store_name,
            plan: 'free',
            billing_email: null,
            metadata: {},
            created_at: now,
            updated_at: now,
          };
          await tx.organizations.insert(organization);
        }
        let store = await tx.stores.getFirst();
        if (!store) {
          store = {
            id: ctx.ids.next('store'),
            organization_id: organization.id,
            name: init.name ?? ctx.config.default_store_name,
            currency: (init.currency ?? ctx.config.default_currency).toUpperCase(),
            timezone: init.timezone ?? ctx.config.default_timezone,
            slug: null,
            prices_include_tax: false,
            tax_rate: 0,
            metadata: {},
            created_at: now,
            updated_at: now,
          };
          await tx.stores.insert(store);
        }
        return { store, organization };
      });
    },

    /** The store record, for services that need its currency and tax settings. */
    requireStore,

    async get(scope: Scope) {
      return storeToWire(await requireStore(scope));
    },

    /** `currency` can change only while the store has no products and no orders (409 otherwise). */
    async update(scope: Scope, input: StoreUpdateInput) {
      return write(ctx, async ({ tx, now }) => {
        const store = await tx.stores.get(scope.store_id);
        if (!store) throw new CommerceError('not_found', 'No such store');
        const currency = input.currency?.toUpperCase();
        if (
          currency !== undefined &&
          currency !== store.currency &&
          (await tx.stores.hasCatalogOrOrders(store.id))
        ) {
          throw new CommerceError(
            'currency_locked',
            'The currency cannot change once products or orders exist',
            {
              param: 'currency',
            },
          );
        }
        const updated = await tx.stores.update(store.id, {
          updated_at: now,
          ...(input.name !== undefined && { name: input.name }),
          ...(currency !== undefined && { currency }),
          ...(input.timezone !== undefined && { timezone: input.timezone }),
          ...(input.prices_include_tax !== undefined && { prices_include_tax: input.prices_include_tax }),
          ...(input.tax_rate !== undefined && { tax_rate: input.tax_rate }),
          ...(input.metadata !== undefined && { metadata: input.metadata }),
        });
        if (!updated) throw new CommerceError('not_found', 'No such store');
        return storeToWire(updated);
      });
    },

    async getOrganization(scope: Scope) {
      const store = await requireStore(scope);
      const org = await read(ctx, (tx) => tx.organizations.get(store.organization_id));
      if (!org) throw new CommerceError('not_found', 'No such organization');
      return organizationToWire(org);
    },

    async updateOrganization(scope: Scope, input: OrganizationUpdateInput) {
      const store = await requireStore(scope);
      return write(ctx, async ({ tx, now }) => {
        const updated = await tx.organizations.update(store.organization_id, {
          updated_at: now,
          ...(input.name !== undefined && { name: input.name }),
          ...(input.billing_email !== undefined && { billing_email: input.billing_email }),
          ...(input.metadata !== undefined && { metadata: input.metadata }),
        });
        if (!updated) throw new CommerceError('not_found', 'No such organization');
        return organizationToWire(updated);
      });
    },
  };
}

export type StoreService = ReturnType<typeof createStoreService>;
