import type { Page, ProductAggregate } from '@cartwright/core/storage';
import { productToWire } from '@cartwright/core/wire';

/**
 * A product's storefront JSON text: `JSON.stringify(productToWire(product, 'storefront'))`, the
 * bytes the storefront read model's contract names (core's wire function is the one definition
 * of the shape; nothing here re-implements it).
 */
export function storefrontProductText(product: ProductAggregate): string {
  return JSON.stringify(productToWire(product, 'storefront'));
}

/**
 * The storefront list response as JSON text: byte for byte `JSON.stringify` of
 * `{ data, total_count, has_more, next_cursor }` with each product as
 * {@link storefrontProductText}. Built with one array join rather than `JSON.stringify` of the
 * whole page or a template literal so that the result is one flat string: V8 keeps `a + b` /
 * `${a}${b}` as a rope, and the HTTP layer's `Buffer.byteLength` and socket write of a ~64 KB
 * rope each walk it (measured ~17 µs per request for the byte length alone), while a flat
 * one-byte string is measured at memory speed. The text is kept by the page cache and served
 * many times, so it is flattened once.
 */
export function storefrontListText(
  page: Page<ProductAggregate>,
  text: (product: ProductAggregate) => string = storefrontProductText,
): string {
  const parts: string[] = ['{"data":['];
  for (let i = 0; i < page.data.length; i++) {
    if (i > 0) parts.push(',');
    parts.push(text(page.data[i] as ProductAggregate));
  }
  parts.push(
    '],"total_count":',
    JSON.stringify(page.total_count),
    ',"has_more":',
    String(page.has_more),
    ',"next_cursor":',
    JSON.stringify(page.next_cursor),
    '}',
  );
  return parts.join('');
}
