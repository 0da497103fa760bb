import type { JsonObject, OrganizationRecord, Scope, StoreRecord } from '../ports/storage';
import type { ServiceContext } from '../shared/context';
import { CommerceError } from '../shared/errors';
import { read, type Work, write } from '../shared/unit-of-work';
import { freeStoreSlug } from './store-slug';
import { organizationToWire, storeToWire } from './wire';

/**
 * Transactions a slug assignment runs at most: a slug conflict with a concurrent transaction
 * (another process creating the store, or giving another store the same slug) is retried in a new
 * transaction, which sees what that one committed.
 */
const SLUG_ATTEMPTS = 5;

const isSlugConflict = (error: unknown): boolean =>
  CommerceError.is(error) && error.code === 'duplicate_slug' && error.param === 'slug';

/** Runs `once` again (a new transaction) while it fails on a slug conflict, at most {@link SLUG_ATTEMPTS} times. */
async function retryingSlugConflicts<T>(once: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await once();
    } catch (error) {
      if (attempt >= SLUG_ATTEMPTS || !isSlugConflict(error)) throw error;
    }
  }
}

export interface StoreUpdateInput {
  name?: string | undefined;
  currency?: string | undefined;
  timezone?: string | undefined;
  prices_include_tax?: boolean | undefined;
  tax_rate?: number | undefined;
  return_window_days?: number | null | undefined;
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

  /** A slug for the store `storeId` named `name` that no other store has (decisions §22). */
  function slugFor(tx: Work['tx'], name: string, storeId: string): Promise<string> {
    return freeStoreSlug(
      name,
      storeId,
      async (slug) => (await tx.stores.get({ slug }))?.id ?? null,
      () => ctx.crypto.randomToken(12),
    );
  }

  /**
   * The store with its slug: a store without one (created before slugs, 0018_client_fields, or
   * written to the storage by other means) gets it now, once, from its name, in its own
   * transaction (`interim`: not a request's response).
   */
  async function withSlug(scope: Scope, store: StoreRecord): Promise<StoreRecord> {
    if (store.slug !== null) return store;
    const claimed = await retryingSlugConflicts(() =>
      write(
        ctx,
        scope,
        async ({ tx }) => {
          const current = await tx.stores.get(store.id);
          if (!current || current.slug !== null) return current;
          return tx.stores.claimSlug(current.id, await slugFor(tx, current.name, current.id));
        },
        { interim: true },
      ),
    );
    return claimed ?? store;
  }

  function ensureStoreOnce(init: {
    name?: string;
    currency?: string;
    timezone?: string;
  }): Promise<{ store: StoreRecord; organization: OrganizationRecord }> {
    return write(ctx, null, async ({ tx, now }) => {
      let organization = await tx.organizations.get();
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
      let store = await tx.stores.get();
      if (!store) {
        const id = ctx.ids.next('store');
        const name = init.name ?? ctx.config.default_store_name;
        store = {
          id,
          organization_id: organization.id,
          name,
          currency: (init.currency ?? ctx.config.default_currency).toUpperCase(),
          timezone: init.timezone ?? ctx.config.default_timezone,
          slug: await slugFor(tx, name, id),
          prices_include_tax: false,
          tax_rate: 0,
          return_window_days: null,
          metadata: {},
          created_at: now,
          updated_at: now,
        };
        await tx.stores.insert(store);
      } else if (store.slug === null) {
        // A store created before slugs: its slug, once, from its name now.
        store = (await tx.stores.claimSlug(store.id, await slugFor(tx, store.name, store.id))) ?? store;
      }
      return { store, organization };
    });
  }

  return {
    /**
     * Creates the organization and its store on first start (docs/contract.md#running); returns the existing
     * ones otherwise, giving the store its `slug` if it has none yet (decisions §22). Safe to call on
     * every start, from several processes at once: two processes creating the first store at once
     * collide on the unique slug, and the one that fails runs again and finds the other's store.
     */
    async ensureStore(
      init: { name?: string; currency?: string; timezone?: string } = {},
    ): Promise<{ store: StoreRecord; organization: OrganizationRecord }> {
      return retryingSlugConflicts(() => ensureStoreOnce(init));
    },

    /** The store record, for services that need its currency and tax settings. */
    requireStore,

    async get(scope: Scope) {
      return storeToWire(await withSlug(scope, await requireStore(scope)));
    },

    /**
     * `currency` can change only while the store has no products and no orders (409 otherwise).
     * The slug stays what it is when the name changes (decisions §22: an address stays valid), and
     * is not an input.
     */
    async update(scope: Scope, input: StoreUpdateInput) {
      await withSlug(scope, await requireStore(scope));
      return write(ctx, scope, async ({ tx, now }) => {
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
          ...(input.return_window_days !== undefined && { return_window_days: input.return_window_days }),
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
      return write(ctx, scope, async ({ tx, now }) => {
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
