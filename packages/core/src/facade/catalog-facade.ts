import type { EngineServices as Engine } from '../engine-services';
import type { Scope } from '../ports/storage';
import {
  AdminProductListQuerySchema,
  AdminShippingMethodListQuerySchema,
  ImageCreateSchema,
  InventoryAdjustSchema,
  InventoryListQuerySchema,
  InventoryUpdateSchema,
  ProductCreateSchema,
  ProductUpdateSchema,
  ShippingMethodCreateSchema,
  ShippingMethodUpdateSchema,
  StorefrontProductListQuerySchema,
  StorefrontShippingMethodListQuerySchema,
  VariantCreateSchema,
  VariantUpdateSchema,
} from '../schemas';
import { body, type In, pageOf, query, VariantListQuerySchema } from './inputs';

/** Products, variants and images (admin and storefront views), bound to one scope. */
export function productsFacade(engine: Engine, scope: Scope) {
  const products = engine.products;
  return {
    create: async (input: In<typeof ProductCreateSchema>) =>
      products.create(scope, body(ProductCreateSchema, input)),
    list: async (q: In<typeof AdminProductListQuerySchema> = {}) =>
      products.list(scope, query(AdminProductListQuerySchema, q)),
    get: async (id: string) => products.get(scope, id),
    update: async (id: string, input: In<typeof ProductUpdateSchema>) =>
      products.update(scope, id, body(ProductUpdateSchema, input)),
    delete: async (id: string) => products.delete(scope, id),
    listVariants: async (productId: string, q: In<typeof VariantListQuerySchema> = {}) =>
      products.listVariants(scope, productId, pageOf(query(VariantListQuerySchema, q))),
    createVariant: async (productId: string, input: In<typeof VariantCreateSchema>) =>
      products.createVariant(scope, productId, body(VariantCreateSchema, input)),
    updateVariant: async (variantId: string, input: In<typeof VariantUpdateSchema>) =>
      products.updateVariant(scope, variantId, body(VariantUpdateSchema, input)),
    deleteVariant: async (variantId: string) => products.deleteVariant(scope, variantId),
    addImage: async (productId: string, input: In<typeof ImageCreateSchema>) =>
      products.addImage(scope, productId, body(ImageCreateSchema, input)),
    deleteImage: async (productId: string, imageId: string) =>
      products.deleteImage(scope, productId, imageId),
    /** The storefront list: active products only, no cost prices or stock internals. */
    listStorefront: async (q: In<typeof StorefrontProductListQuerySchema> = {}) =>
      products.listStorefront(scope, query(StorefrontProductListQuerySchema, q)),
    getStorefront: async (id: string) => products.getStorefront(scope, id),
    getStorefrontBySlug: async (slug: string) => products.getStorefrontBySlug(scope, slug),
  };
}

/** Shipping methods, bound to one scope. */
export function shippingMethodsFacade(engine: Engine, scope: Scope) {
  const methods = engine.shippingMethods;
  return {
    create: async (input: In<typeof ShippingMethodCreateSchema>) =>
      methods.create(scope, body(ShippingMethodCreateSchema, input)),
    list: async (q: In<typeof AdminShippingMethodListQuerySchema> = {}) =>
      methods.list(scope, query(AdminShippingMethodListQuerySchema, q)),
    get: async (id: string) => methods.get(scope, id),
    update: async (id: string, input: In<typeof ShippingMethodUpdateSchema>) =>
      methods.update(scope, id, body(ShippingMethodUpdateSchema, input)),
    delete: async (id: string) => methods.delete(scope, id),
    listStorefront: async (q: In<typeof StorefrontShippingMethodListQuerySchema> = {}) =>
      methods.listStorefront(scope, pageOf(query(StorefrontShippingMethodListQuerySchema, q))),
  };
}

/** Inventory records (one per variant), bound to one scope. */
export function inventoryFacade(engine: Engine, scope: Scope) {
  const inventory = engine.inventory;
  return {
    list: async (q: In<typeof InventoryListQuerySchema> = {}) => {
      const parsed = query(InventoryListQuerySchema, q);
      return inventory.list(scope, { low_stock: parsed.low_stock }, pageOf(parsed));
    },
    get: async (id: string) => inventory.get(scope, id),
    update: async (id: string, input: In<typeof InventoryUpdateSchema>) =>
      inventory.update(scope, id, body(InventoryUpdateSchema, input)),
    /** `{ quantity }` is a signed delta, applied atomically. */
    adjust: async (id: string, input: In<typeof InventoryAdjustSchema>) =>
      inventory.adjust(scope, id, body(InventoryAdjustSchema, input)),
  };
}
