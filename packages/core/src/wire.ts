/**
 * `@cartwright/core/wire`: the serialisers whose output another module must reproduce byte for
 * byte. A storage adapter's storefront read model stores each product as the text of
 * `JSON.stringify(productToWire(product, 'storefront'))` and a list page as
 * `productPageToWire(page, 'storefront')`, and answers them as they are; the engine answers the
 * same objects, so the two must never differ (`@cartwright/storage-conformance` compares them).
 *
 * Stable: these names and their output follow semver like `@cartwright/core` itself — the output
 * is the wire format of docs/contract.md (`Product`, `ProductList`), which changes only with it.
 */
import { productPageToWire as pageToWire } from './catalog/product-support';
import type { Product, ProductList } from './catalog/schemas';
import { type CatalogView, productToWire as toWire } from './catalog/wire';
import type { Page, ProductAggregate } from './ports/storage';

export type { CatalogView };

/**
 * The Product resource of a stored product as the API answers it: the `admin` view (default) or
 * the `storefront` view (`cost_price` and the inventory's `on_hand`, `reserved` and `safety_stock`
 * null, inactive variants left out; docs/contract.md#storefront-visibility).
 */
export const productToWire: (product: ProductAggregate, view?: CatalogView) => Product = toWire;

/** A storage page of products as the API's list envelope, in the given view. */
export const productPageToWire: (page: Page<ProductAggregate>, view: CatalogView) => ProductList = pageToWire;

/**
 * A product priced in a region (decisions §19): a storefront read in a region is
 * `productInRegionToWire(product, 'storefront', region, regionPriceMap(prices))` with the region's
 * prices of the product's variants (`RegionPriceRepository.pricesFor`); `region` from
 * `storefrontRegionOf(region, storeCurrency, rates)`. Null region: `productToWire` itself.
 */
export {
  productInRegionToWire,
  regionPriceMap,
  type StorefrontRegion,
  storefrontRegionOf,
} from './catalog/product-in-region';
/**
 * A product with its name, description, option names and option values translated by a lookup
 * of one locale's translations (decisions §21; the base text where none): a storefront read in a
 * locale is `productToWire(translateProduct(product, lookup), 'storefront')`.
 */
export { type TranslationLookup, translateProduct, translationLookup } from './locales/translate';
