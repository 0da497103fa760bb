import type { PageRequest, ProductAggregate, Scope } from '../ports/storage';
import type { ServiceContext } from '../shared/context';
import { errors } from '../shared/errors';
import { read, write } from '../shared/unit-of-work';
import { storeAmount, storeAmountOrNull } from './money-input';
import { buildVariant } from './product-records';
import { productChanged, requireProduct, storeCurrency } from './product-support';
import { refreshRegionProductPrices } from './region-product-prices';
import { representativePrice, withoutVariant, withVariant } from './representative-price';
import type { VariantCreate, VariantUpdate } from './schemas';
import { assertUniqueCombination, resolveVariantOptions } from './variant-options';
import { nextPosition, pageOfVariants, type VariantSort } from './variant-page';
import { type VariantWire, variantContextOf, variantToWire } from './wire';

/** The variant `id` of a reloaded product in its admin wire form. */
function variantWireOf(product: ProductAggregate, id: string): VariantWire {
  const variant = product.variants.find((candidate) => candidate.id === id);
  if (!variant) throw errors.notFound('variant', id);
  return variantToWire(variant, variantContextOf(product), 'admin');
}

/**
 * A product's variants (docs/contract.md#catalog): list, add, change, remove. Every change reads
 * the product under its lock (`forUpdate`: concurrent changes of one product's variants go one
 * after another), bumps its `updated_at`, writes its representative `price` computed from its
 * live variants as the change leaves them (`representativePrice`), and emits `product.updated`.
 *
 * Option references follow `resolveVariantOptions`: unknown option names, values or value ids →
 * 400 `parameter_invalid`; a combination another variant already has → 400 `parameter_invalid`
 * on `options` (or `option_value_ids`).
 */
export function createVariantCommands(ctx: ServiceContext) {
  return {
    /** `GET /v1/admin/products/{id}/variants`: every variant, active or not (admin view). */
    async listVariants(scope: Scope, productId: string, page: PageRequest<VariantSort>) {
      const product = await read(ctx, (tx) => requireProduct(tx, scope, productId));
      const result = pageOfVariants(product.variants, page);
      const context = variantContextOf(product);
      return { ...result, data: result.data.map((variant) => variantToWire(variant, context, 'admin')) };
    },

    /**
     * `POST /v1/admin/products/{id}/variants`: at `position` when given, else appended after the
     * product's variants (one more than the highest position).
     */
    async createVariant(scope: Scope, productId: string, input: VariantCreate): Promise<VariantWire> {
      return write(ctx, scope, async (work) => {
        const { tx, now } = work;
        const product = await requireProduct(tx, scope, productId, { forUpdate: true });
        const currency = await storeCurrency(tx, scope);
        const optionValueIds = resolveVariantOptions(product.options, input, { at: [] });
        const param = input.option_value_ids !== undefined ? 'option_value_ids' : 'options';
        assertUniqueCombination(product.variants, optionValueIds, null, param);
        const variant = buildVariant({
          scope,
          productId,
          currency,
          input,
          optionValueIds,
          defaultPosition: nextPosition(product.variants),
          at: [],
          now,
          ids: ctx.ids,
        });
        const { inventory, ...record } = variant;
        await tx.products.insertVariant(record, inventory);
        await refreshRegionProductPrices(tx, scope, { product_ids: [productId] });
        const price = representativePrice(withVariant(product.variants, variant));
        return variantWireOf(await productChanged(work, scope, productId, { price }), variant.id);
      });
    },

    /**
     * `PATCH /v1/admin/variants/{id}`: the fields given replace the stored ones (`null` clears
     * nullable ones, `metadata` as a whole). Option values follow the same rules as on creation.
     * Stock is changed through the inventory endpoints.
     */
    async updateVariant(scope: Scope, id: string, input: VariantUpdate): Promise<VariantWire> {
      return write(ctx, scope, async (work) => {
        const { tx, now } = work;
        const existing = await tx.products.getVariant(scope, id);
        if (!existing) throw errors.notFound('variant', id);
        const product = await requireProduct(tx, scope, existing.product_id, { forUpdate: true });
        const currency = await storeCurrency(tx, scope);
        let optionValueIds: string[] | undefined;
        if (input.options !== undefined || input.option_value_ids !== undefined) {
          optionValueIds = resolveVariantOptions(product.options, input, { at: [] });
          const param = input.options !== undefined ? 'options' : 'option_value_ids';
          assertUniqueCombination(product.variants, optionValueIds, id, param);
        }
        const compareAt = storeAmountOrNull(input.compare_at_price, currency, 'compare_at_price');
        const cost = storeAmountOrNull(input.cost_price, currency, 'cost_price');
        const updated = await tx.products.updateVariant(scope, id, {
          updated_at: now,
          ...(input.sku !== undefined && { sku: input.sku }),
          ...(input.barcode !== undefined && { barcode: input.barcode }),
          ...(input.price !== undefined && { price: storeAmount(input.price, currency, 'price') }),
          ...(compareAt !== undefined && { compare_at_price: compareAt }),
          ...(cost !== undefined && { cost_price: cost }),
          ...(input.weight !== undefined && { weight: input.weight }),
          ...(input.width !== undefined && { width: input.width }),
          ...(input.height !== undefined && { height: input.height }),
          ...(input.depth !== undefined && { depth: input.depth }),
          ...(input.position !== undefined && { position: input.position }),
          ...(input.is_active !== undefined && { is_active: input.is_active }),
          ...(optionValueIds !== undefined && { option_value_ids: optionValueIds }),
          ...(input.metadata !== undefined && { metadata: input.metadata }),
        });
        if (!updated) throw errors.notFound('variant', id);
        // Its product's representative price in each region (decisions §19).
        if (
          input.price !== undefined ||
          input.compare_at_price !== undefined ||
          input.is_active !== undefined
        )
          await refreshRegionProductPrices(tx, scope, { product_ids: [existing.product_id] });
        const price = representativePrice(withVariant(product.variants, updated));
        return variantWireOf(await productChanged(work, scope, existing.product_id, { price }), id);
      });
    },

    /**
     * `DELETE /v1/admin/variants/{id}`: a soft delete (order lines keep their snapshots; its
     * inventory is no longer listed by the storage). Its option values stay on the product.
     */
    async deleteVariant(scope: Scope, id: string): Promise<{ id: string; deleted: true }> {
      return write(ctx, scope, async (work) => {
        const { tx, now } = work;
        const existing = await tx.products.getVariant(scope, id);
        const product = existing && (await tx.products.get(scope, existing.product_id, { forUpdate: true }));
        if (!existing || !product || !(await tx.products.deleteVariant(scope, id, now)))
          throw errors.notFound('variant', id);
        await refreshRegionProductPrices(tx, scope, { product_ids: [existing.product_id] });
        const price = representativePrice(withoutVariant(product.variants, id));
        await productChanged(work, scope, existing.product_id, { price });
        return { id, deleted: true as const };
      });
    },
  };
}
