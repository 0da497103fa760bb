import type { ServiceContext } from '../shared/context';
import { createImageCommands } from './image-commands';
import { createProductCommands } from './product-commands';
import { createProductQueries } from './product-queries';
import { createVariantCommands } from './variant-commands';

/**
 * The catalog (docs/contract.md#lists, #inventory, #catalog): products with their options, variants (each with an Inventory
 * record) and images, for the admin and the storefront. Every method takes the caller's scope
 * (store + mode; another scope's ids are 404) and returns wire objects.
 *
 * - `create`, `update`, `delete`, `list`, `get`: products (admin);
 * - `listVariants`, `createVariant`, `updateVariant`, `deleteVariant`: variants (admin);
 * - `addImage`, `deleteImage`: images (admin);
 * - `listStorefront`, `getStorefront`, `getStorefrontBySlug`: the storefront view.
 *
 * Events: `product.created`, `product.updated` (also when variants or images change),
 * `product.deleted`, each with the product's admin wire object, in the change's transaction.
 */
export function createProductService(ctx: ServiceContext) {
  return {
    ...createProductQueries(ctx),
    ...createProductCommands(ctx),
    ...createVariantCommands(ctx),
    ...createImageCommands(ctx),
  };
}

export type ProductService = ReturnType<typeof createProductService>;
