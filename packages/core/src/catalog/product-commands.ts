import type { ProductAggregate, Repositories, Scope, VariantWithInventory } from '../ports/storage';
import type { ServiceContext } from '../shared/context';
import { CommerceError, errors } from '../shared/errors';
import { formatParam } from '../shared/schemas/parse';
import { write } from '../shared/unit-of-work';
import { assertCategoriesExist } from './category-membership';
import { buildImage, buildOptions, buildVariant } from './product-records';
import { requireProduct, storeCurrency } from './product-support';
import { refreshRegionProductPrices } from './region-product-prices';
import { representativePrice } from './representative-price';
import type { ProductCreate, ProductUpdate, VariantCreate } from './schemas';
import { slugForProduct } from './slug';
import { assertUniqueCombination, resolveVariantOptions } from './variant-options';
import { type ProductWire, productToWire } from './wire';

/** Two variants of one request with the same SKU → 409 `duplicate_sku` on the second. */
function assertDistinctSkus(variants: readonly VariantCreate[]): void {
  const seen = new Map<string, number>();
  variants.forEach((variant, index) => {
    if (variant.sku == null) return;
    const first = seen.get(variant.sku);
    if (first !== undefined) {
      throw new CommerceError(
        'duplicate_sku',
        `variants[${index}][sku] duplicates the SKU of variants[${first}]`,
        {
          param: `variants[${index}][sku]`,
        },
      );
    }
    seen.set(variant.sku, index);
  });
}

/**
 * Inserts the product; a SKU taken by another product (409 `duplicate_sku` from the storage,
 * param `sku`) is pointed at the variant that carries it (`variants[1][sku]`) when the storage
 * names the value or only one variant has a SKU.
 */
async function insertProduct(
  tx: Repositories,
  product: ProductAggregate,
  variants: readonly VariantCreate[],
) {
  try {
    await tx.products.insert(product);
  } catch (error) {
    if (!CommerceError.is(error) || error.code !== 'duplicate_sku' || error.param !== 'sku') throw error;
    const value = error.data?.value;
    const withSku = variants.flatMap((variant, index) =>
      variant.sku == null ? [] : [{ sku: variant.sku, index }],
    );
    const culprit =
      withSku.find((entry) => entry.sku === value) ?? (withSku.length === 1 ? withSku[0] : undefined);
    if (culprit === undefined) throw error;
    throw new CommerceError('duplicate_sku', `A variant with the SKU '${culprit.sku}' already exists`, {
      param: `variants[${culprit.index}][sku]`,
      data: { sku: culprit.sku },
      cause: error,
    });
  }
}

/** Creating, updating and deleting products (docs/contract.md#catalog). */
export function createProductCommands(ctx: ServiceContext) {
  return {
    /**
     * `POST /v1/admin/products`. Options come first (their values get ids), then every variant
     * resolves its `options` against them and gets an Inventory record. Decision: a product
     * created without `variants` has none (it is listed, but cannot be bought until a variant is
     * added); no default variant is made up. Emits `product.created`.
     */
    async create(scope: Scope, input: ProductCreate): Promise<ProductWire> {
      return write(ctx, scope, async (work) => {
        const { tx, now } = work;
        const currency = await storeCurrency(tx, scope);
        const id = ctx.ids.next('prod');
        const options = buildOptions(input.options, id, ctx.ids);
        assertDistinctSkus(input.variants);
        const variants: VariantWithInventory[] = [];
        input.variants.forEach((variant, index) => {
          const at = ['variants', index] as const;
          const option_value_ids = resolveVariantOptions(options, variant, { at });
          assertUniqueCombination(variants, option_value_ids, null, formatParam([...at, 'options']));
          variants.push(
            buildVariant({
              scope,
              productId: id,
              currency,
              input: variant,
              optionValueIds: option_value_ids,
              defaultPosition: index,
              at,
              now,
              ids: ctx.ids,
            }),
          );
        });
        const product: ProductAggregate = {
          id,
          store_id: scope.store_id,
          mode: scope.mode,
          name: input.name,
          slug: slugForProduct(input, id),
          description: input.description ?? null,
          type: input.type,
          status: input.status,
          tags: input.tags,
          category_ids: input.category_ids ?? [],
          attributes: input.attributes,
          metadata: input.metadata,
          price: representativePrice(variants),
          currency,
          created_at: now,
          updated_at: now,
          options,
          variants,
          images: input.images.map((image, index) => buildImage(image, id, index, [], ctx.ids)),
        };
        // Before any write: the tree lock comes before the product's row (decisions §17).
        await assertCategoriesExist(tx, scope, input.category_ids ?? []);
        await insertProduct(tx, product, input.variants);
        // Its representative price in each region (decisions §19; no regions: one read).
        await refreshRegionProductPrices(tx, scope, { product_ids: [id] });
        const wire = productToWire(await requireProduct(tx, scope, id), 'admin');
        work.emit(scope, 'product.created', wire);
        return wire;
      });
    },

    /**
     * `PATCH /v1/admin/products/{id}`: the fields given replace the stored ones (`metadata` and
     * `attributes` as a whole, docs/contract.md#requests; `description: null` clears it). A slug taken by
     * another product → 409 `duplicate_slug`. Emits `product.updated`.
     */
    async update(scope: Scope, id: string, input: ProductUpdate): Promise<ProductWire> {
      return write(ctx, scope, async (work) => {
        const { tx, now } = work;
        // Before the product's row: the tree lock comes first (decisions §17).
        if (input.category_ids !== undefined) await assertCategoriesExist(tx, scope, input.category_ids);
        const updated = await tx.products.update(scope, id, {
          updated_at: now,
          ...(input.name !== undefined && { name: input.name }),
          ...(input.slug !== undefined && { slug: input.slug }),
          ...(input.description !== undefined && { description: input.description }),
          ...(input.type !== undefined && { type: input.type }),
          ...(input.status !== undefined && { status: input.status }),
          ...(input.tags !== undefined && { tags: input.tags }),
          ...(input.category_ids !== undefined && { category_ids: input.category_ids }),
          ...(input.attributes !== undefined && { attributes: input.attributes }),
          ...(input.metadata !== undefined && { metadata: input.metadata }),
        });
        if (!updated) throw errors.notFound('product', id);
        if (input.status !== undefined) await refreshRegionProductPrices(tx, scope, { product_ids: [id] });
        const wire = productToWire(await requireProduct(tx, scope, id), 'admin');
        work.emit(scope, 'product.updated', wire);
        return wire;
      });
    },

    /**
     * `DELETE /v1/admin/products/{id}`: a soft delete of the product and its variants (orders
     * keep their snapshots). Emits `product.deleted` with the product as it was.
     */
    async delete(scope: Scope, id: string): Promise<{ id: string; deleted: true }> {
      return write(ctx, scope, async (work) => {
        const { tx, now } = work;
        const wire = productToWire(await requireProduct(tx, scope, id), 'admin');
        if (!(await tx.products.delete(scope, id, now))) throw errors.notFound('product', id);
        await refreshRegionProductPrices(tx, scope, { product_ids: [id] });
        work.emit(scope, 'product.deleted', wire);
        return { id, deleted: true as const };
      });
    },
  };
}
