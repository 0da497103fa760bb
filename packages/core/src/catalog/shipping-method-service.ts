import { BASE_TEXT, type ReadLanguage } from '../locales/negotiate';
import { namedIn } from '../locales/records';
import type { PageRequest, Scope } from '../ports/storage';
import type { ServiceContext } from '../shared/context';
import { errors } from '../shared/errors';
import { read, write } from '../shared/unit-of-work';
import { storeAmount, storeAmountOrNull } from './money-input';
import { storeCurrency } from './product-support';
import type {
  AdminShippingMethodListQuery,
  SHIPPING_METHOD_SORTS,
  ShippingMethodCreate,
  ShippingMethodUpdate,
} from './shipping-schemas';
import { type ShippingMethodWire, shippingMethodToWire } from './shipping-wire';

export type ShippingMethodSort = (typeof SHIPPING_METHOD_SORTS)[number];

/**
 * Shipping methods (docs/contract.md#shipping-methods, #shipping-price): a price, charged unless the discounted subtotal reaches
 * `free_shipping_threshold` (null: never free). Amounts are in the store currency (another one →
 * 422 `currency_mismatch`). The storefront lists active methods only.
 */
export function createShippingMethodService(ctx: ServiceContext) {
  return {
    /** `POST /v1/admin/shipping-methods`. */
    async create(scope: Scope, input: ShippingMethodCreate): Promise<ShippingMethodWire> {
      return write(ctx, scope, async ({ tx, now }) => {
        const currency = await storeCurrency(tx, scope);
        const record = {
          id: ctx.ids.next('ship'),
          store_id: scope.store_id,
          mode: scope.mode,
          name: input.name,
          description: input.description ?? null,
          price: storeAmount(input.price, currency, 'price'),
          free_shipping_threshold:
            storeAmountOrNull(input.free_shipping_threshold, currency, 'free_shipping_threshold') ?? null,
          currency,
          is_active: input.is_active,
          position: input.position,
          metadata: input.metadata,
          created_at: now,
          updated_at: now,
        };
        await tx.shippingMethods.insert(record);
        return shippingMethodToWire(record);
      });
    },

    /** `GET /v1/admin/shipping-methods`: every method, optionally filtered by `is_active`. */
    async list(scope: Scope, query: AdminShippingMethodListQuery) {
      const page = await read(ctx, (tx) =>
        tx.shippingMethods.list(scope, query.is_active === undefined ? {} : { is_active: query.is_active }, {
          limit: query.limit,
          starting_after: query.starting_after,
          sort: query.sort,
          order: query.order,
        }),
      );
      return { ...page, data: page.data.map(shippingMethodToWire) };
    },

    /** `GET /v1/admin/shipping-methods/{id}`, active or not. */
    async get(scope: Scope, id: string): Promise<ShippingMethodWire> {
      const record = await read(ctx, (tx) => tx.shippingMethods.get(scope, id));
      if (!record) throw errors.notFound('shipping method', id);
      return shippingMethodToWire(record);
    },

    /**
     * `PATCH /v1/admin/shipping-methods/{id}`: fields given replace the stored ones
     * (`free_shipping_threshold: null` removes the threshold, `metadata` is replaced whole).
     */
    async update(scope: Scope, id: string, input: ShippingMethodUpdate): Promise<ShippingMethodWire> {
      return write(ctx, scope, async ({ tx, now }) => {
        const currency = await storeCurrency(tx, scope);
        const threshold = storeAmountOrNull(
          input.free_shipping_threshold,
          currency,
          'free_shipping_threshold',
        );
        const updated = await tx.shippingMethods.update(scope, id, {
          updated_at: now,
          ...(input.name !== undefined && { name: input.name }),
          ...(input.description !== undefined && { description: input.description }),
          ...(input.price !== undefined && { price: storeAmount(input.price, currency, 'price') }),
          ...(threshold !== undefined && { free_shipping_threshold: threshold }),
          ...(input.is_active !== undefined && { is_active: input.is_active }),
          ...(input.position !== undefined && { position: input.position }),
          ...(input.metadata !== undefined && { metadata: input.metadata }),
        });
        if (!updated) throw errors.notFound('shipping method', id);
        return shippingMethodToWire(updated);
      });
    },

    /** `DELETE /v1/admin/shipping-methods/{id}`: a soft delete (orders keep the method's name). */
    async delete(scope: Scope, id: string): Promise<{ id: string; deleted: true }> {
      const deleted = await write(ctx, scope, ({ tx, now }) => tx.shippingMethods.delete(scope, id, now));
      if (!deleted) throw errors.notFound('shipping method', id);
      return { id, deleted: true as const };
    },

    /**
     * `GET /v1/storefront/shipping-methods`: active methods only, in the order the caller asks
     * (the storefront route defaults to `position` ascending).
     */
    async listStorefront(
      scope: Scope,
      page: PageRequest<ShippingMethodSort>,
      language: ReadLanguage = BASE_TEXT,
    ) {
      return read(ctx, async (tx) => {
        const result = await tx.shippingMethods.list(scope, { is_active: true }, page);
        // Names and descriptions in the language (decisions §21), the base text where none.
        const shown = await namedIn(tx, scope, 'shipping_method', language, result.data);
        return { ...result, data: shown.map(shippingMethodToWire) };
      });
    },
  };
}

export type ShippingMethodService = ReturnType<typeof createShippingMethodService>;
