import type { InventoryRecord, Page, ProductAggregate } from '../ports/storage';
import { productToWire } from './wire';

/**
 * A product's storefront JSON rendered once, when the product is written, and served as text
 * (re-parsing, rebuilding and re-serialising the same products on every catalog
 * request cost most of its CPU).
 *
 * The only part of a storefront product that changes without a catalog write is the stock of its
 * shown variants: `available` (= on_hand − reserved, moved by every checkout), `track_inventory`
 * and `allow_backorder` (admin inventory edits). The template is the product's storefront text
 * with exactly that part of each shown variant's `inventory` object left out and marked by one
 * raw U+0001 character ({@link STOREFRONT_SLOT}). `JSON.stringify` never writes a raw control
 * character (it escapes them inside strings), so the marks are unambiguous. The inventory's `id`,
 * `variant_id` and (storefront: always empty) `metadata` stay in the template: they never change.
 *
 * Decision: the slot holds the stock fields rather than the whole inventory object, so the read
 * path needs three small values per variant (flags and `available`), not the inventory's ids.
 * {@link fillStorefrontTemplate} with each slot's current stock gives exactly
 * `JSON.stringify(productToWire(product, 'storefront'))` (property-tested).
 */

/** The mark of a stock slot in a storefront template. */
export const STOREFRONT_SLOT = '\u0001';

/** A product's storefront template and the variant ids of its slots, in slot order. */
export interface StorefrontTemplate {
  template: string;
  variant_ids: string[];
}

/**
 * `JSON.stringify(object)` for a plain object of JSON values, except that the value of `key`
 * (when present) is written as `text`, unescaped.
 */
function objectText(object: Record<string, unknown>, key: string, text: (value: unknown) => string): string {
  let out = '{';
  for (const name of Object.keys(object)) {
    const value = object[name];
    const written = name === key ? text(value) : JSON.stringify(value);
    if (written === undefined) continue;
    out += `${out.length === 1 ? '' : ','}${JSON.stringify(name)}:${written}`;
  }
  return `${out}}`;
}

/** The storefront inventory fields that {@link storefrontStockFragment} writes, in wire order. */
const STOCK_FIELDS = new Set([
  'track_inventory',
  'allow_backorder',
  'safety_stock',
  'on_hand',
  'reserved',
  'available',
]);

/** A storefront inventory object with its stock fields replaced by one slot mark. */
function inventoryTemplate(inventory: Record<string, unknown>): string {
  let out = '{';
  let slotted = false;
  for (const name of Object.keys(inventory)) {
    let part: string;
    if (STOCK_FIELDS.has(name)) {
      if (slotted) continue;
      slotted = true;
      part = STOREFRONT_SLOT;
    } else {
      const written = JSON.stringify(inventory[name]);
      if (written === undefined) continue;
      part = `${JSON.stringify(name)}:${written}`;
    }
    out += `${out.length === 1 ? '' : ','}${part}`;
  }
  return `${out}}`;
}

/**
 * The storefront template of a product (see the module comment): its shown (active) variants in
 * position order each get one slot.
 */
export function storefrontTemplate(product: ProductAggregate): StorefrontTemplate {
  const wire = productToWire(product, 'storefront');
  const variant_ids: string[] = [];
  const template = objectText(wire, 'variants', (variants) => {
    const texts = (variants as Record<string, unknown>[]).map((variant) => {
      variant_ids.push(variant.id as string);
      return objectText(variant, 'inventory', (inventory) =>
        inventoryTemplate(inventory as Record<string, unknown>),
      );
    });
    return `[${texts.join(',')}]`;
  });
  return { template, variant_ids };
}

/** The four stock prefixes, by `track_inventory * 2 + allow_backorder`. */
const STOCK_PREFIXES = [false, true].flatMap((track) =>
  [false, true].map(
    (backorder) =>
      `"track_inventory":${track},"allow_backorder":${backorder},"safety_stock":null,"on_hand":null,"reserved":null,"available":`,
  ),
);

/**
 * The text that fills a stock slot: the storefront inventory's stock fields for these values
 * (`available` = on_hand − reserved), as `inventoryToWire(record, 'storefront')` writes them.
 */
export function storefrontStockFragment(
  trackInventory: boolean,
  allowBackorder: boolean,
  available: number,
): string {
  return `${STOCK_PREFIXES[(trackInventory ? 2 : 0) + (allowBackorder ? 1 : 0)]}${JSON.stringify(available)}`;
}

/** {@link storefrontStockFragment} of an inventory record. */
export function storefrontStockOf(record: InventoryRecord): string {
  return storefrontStockFragment(
    record.track_inventory,
    record.allow_backorder,
    record.on_hand - record.reserved,
  );
}

/**
 * A template with its slots filled, in order, by `fragments` (one per slot; see
 * {@link storefrontStockFragment}). Throws when the counts differ.
 */
export function fillStorefrontTemplate(template: string, fragments: readonly string[]): string {
  const parts = template.split(STOREFRONT_SLOT);
  if (parts.length !== fragments.length + 1) {
    throw new Error(`Storefront template has ${parts.length - 1} slots, got ${fragments.length} fragments`);
  }
  let out = parts[0] as string;
  for (let i = 0; i < fragments.length; i++) out += `${fragments[i]}${parts[i + 1]}`;
  return out;
}

/** The key before each slot's variant id in a template (`…,"variant_id":"var_1",<slot>,…`). */
const VARIANT_ID_KEY = '"variant_id":';

/**
 * A template with each slot filled by `fragmentOf(the slot's variant id)`; undefined when
 * `fragmentOf` has no fragment for one of them. A slot's variant id is read from the template
 * itself: the inventory object holds `"variant_id":<JSON string>,` right before its slot (a raw
 * `"variant_id":` cannot occur inside a JSON string, whose quotes are escaped), so a storage can
 * look stock up by variant without storing the slot order.
 */
export function fillStorefrontTemplateBy(
  template: string,
  fragmentOf: (variantId: string) => string | undefined,
): string | undefined {
  let out = '';
  let from = 0;
  for (;;) {
    const slot = template.indexOf(STOREFRONT_SLOT, from);
    if (slot < 0) return out + template.slice(from);
    const key = template.lastIndexOf(VARIANT_ID_KEY, slot);
    if (key < from) return undefined;
    const literal = template.slice(key + VARIANT_ID_KEY.length, slot - 1);
    const id = literal.includes('\\') ? (JSON.parse(literal) as string) : literal.slice(1, -1);
    const fragment = fragmentOf(id);
    if (fragment === undefined) return undefined;
    out += `${template.slice(from, slot)}${fragment}`;
    from = slot + 1;
  }
}

/**
 * A storefront template pre-split at its slots, for storages that keep templates in memory:
 * the text is `statics[0]`, the stock of `variant_ids[0]`, `statics[1]`, …, `statics[n]`
 * (`statics.length === variant_ids.length + 1`). Filling it is a join, without scanning the
 * template again ({@link fillSplitStorefrontTemplate}).
 */
export interface SplitStorefrontTemplate {
  readonly statics: readonly string[];
  readonly variant_ids: readonly string[];
}

/**
 * Splits a template at its slots, reading each slot's variant id from the template as
 * {@link fillStorefrontTemplateBy} does. Undefined when a slot has no `"variant_id":` before it
 * (not a template this module rendered).
 */
export function splitStorefrontTemplate(template: string): SplitStorefrontTemplate | undefined {
  const statics: string[] = [];
  const variant_ids: string[] = [];
  let from = 0;
  for (;;) {
    const slot = template.indexOf(STOREFRONT_SLOT, from);
    if (slot < 0) {
      statics.push(template.slice(from));
      return { statics, variant_ids };
    }
    const key = template.lastIndexOf(VARIANT_ID_KEY, slot);
    if (key < from) return undefined;
    const literal = template.slice(key + VARIANT_ID_KEY.length, slot - 1);
    variant_ids.push(literal.includes('\\') ? (JSON.parse(literal) as string) : literal.slice(1, -1));
    statics.push(template.slice(from, slot));
    from = slot + 1;
  }
}

/**
 * A split template filled: each slot gets `fragmentOf(its variant id)` (see
 * {@link storefrontStockFragment}); undefined when `fragmentOf` has none for one of them. Gives
 * exactly `fillStorefrontTemplateBy(template, fragmentOf)`.
 */
export function fillSplitStorefrontTemplate(
  split: SplitStorefrontTemplate,
  fragmentOf: (variantId: string) => string | undefined,
): string | undefined {
  const { statics, variant_ids } = split;
  let out = statics[0] as string;
  for (let i = 0; i < variant_ids.length; i++) {
    const fragment = fragmentOf(variant_ids[i] as string);
    if (fragment === undefined) return undefined;
    out += fragment + (statics[i + 1] as string);
  }
  return out;
}

/**
 * The storefront JSON text of a product built directly, without a template:
 * `JSON.stringify(productToWire(product, 'storefront'))` (the reference the templates are held
 * to, and the fallback when a storage has no template for a product).
 */
export function storefrontProductJson(product: ProductAggregate): string {
  return JSON.stringify(productToWire(product, 'storefront'));
}

/**
 * The storefront list response as JSON text from its products' texts: byte for byte
 * `{"data":[…],"total_count":…,"has_more":…,"next_cursor":…}` as `JSON.stringify` writes a
 * list page. Built with one array join rather than a template literal so that the result is one
 * flat string: V8 keeps `a + b` / `${a}${b}` as a rope, and the HTTP layer's
 * `Buffer.byteLength` and socket write of a ~64 KB rope each walk it (measured ~17 µs per
 * request for the byte length alone), while a flat one-byte string is measured at memory speed.
 */
export function storefrontListText(page: Page<string>): string {
  const parts: string[] = ['{"data":['];
  for (let i = 0; i < page.data.length; i++) {
    if (i > 0) parts.push(',');
    parts.push(page.data[i] as string);
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
