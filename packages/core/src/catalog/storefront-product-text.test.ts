import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type {
  ImageRecord,
  InventoryRecord,
  JsonObject,
  OptionRecord,
  ProductAggregate,
  VariantWithInventory,
} from '../ports/storage';
import {
  fillSplitStorefrontTemplate,
  fillStorefrontTemplate,
  fillStorefrontTemplateBy,
  STOREFRONT_SLOT,
  splitStorefrontTemplate,
  storefrontListText,
  storefrontProductJson,
  storefrontStockFragment,
  storefrontStockOf,
  storefrontTemplate,
} from './storefront-product-text';
import { productToWire } from './wire';

const scope = { store_id: 'store_1', mode: 'test' as const };

/** Strings with quotes, backslashes, control characters, the slot mark itself, unicode and lone surrogates. */
const nasty = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constantFrom('"', '\\', '\u0001', '"\\u0001"', '\n\t', '\u2028', '\ud800', 'ünï 😀', '</script>', ''),
);

const json: fc.Arbitrary<JsonObject> = fc.dictionary(
  nasty,
  fc.oneof(
    nasty,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
  ),
  { maxKeys: 4 },
) as fc.Arbitrary<JsonObject>;

const time = fc.integer({ min: 0, max: 4_102_444_800_000 });

function inventoryOf(variantId: string, productId: string): fc.Arbitrary<InventoryRecord> {
  return fc.record({
    store_id: fc.constant(scope.store_id),
    mode: fc.constant(scope.mode),
    id: fc.constant(`inv_${variantId}`),
    variant_id: fc.constant(variantId),
    product_id: fc.constant(productId),
    track_inventory: fc.boolean(),
    allow_backorder: fc.boolean(),
    safety_stock: fc.integer({ min: 0, max: 50 }),
    on_hand: fc.integer({ min: -5, max: 1_000_000 }),
    reserved: fc.integer({ min: 0, max: 1_000 }),
    metadata: json,
    created_at: time,
    updated_at: time,
  });
}

const aggregate: fc.Arbitrary<ProductAggregate> = fc
  .record({
    name: nasty,
    description: fc.option(nasty),
    tags: fc.array(nasty, { maxLength: 3 }),
    attributes: json,
    metadata: json,
    status: fc.constantFrom('draft', 'active', 'archived' as const),
    price: fc.option(fc.integer({ min: 0, max: 10_000_000 })),
    optionNames: fc.array(nasty, { maxLength: 2 }),
    valueNames: fc.array(nasty, { minLength: 1, maxLength: 3 }),
    variantCount: fc.integer({ min: 0, max: 5 }),
    imageCount: fc.integer({ min: 0, max: 3 }),
    seed: fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 9 }), json), {
      minLength: 5,
      maxLength: 5,
    }),
    created_at: time,
    updated_at: time,
  })
  .chain((p) => {
    const id = 'prod_"x\\';
    const options: OptionRecord[] = p.optionNames.map((name, o) => ({
      id: `opt_${o}`,
      product_id: id,
      name,
      position: 1 - o,
      values: p.valueNames.map((value, v) => ({
        id: `val_${o}_${v}`,
        option_id: `opt_${o}`,
        value,
        position: v,
      })),
    }));
    const variantIds = Array.from({ length: p.variantCount }, (_, i) => `var_${i}`);
    return fc
      .record({
        inventories: fc.tuple(...variantIds.map((v) => inventoryOf(v, id))),
        images: fc.array(
          fc.record({
            url: nasty,
            alt_text: fc.option(nasty),
            width: fc.option(fc.integer({ min: 1, max: 4000 })),
            position: fc.integer({ min: 0, max: 3 }),
            attached: fc.subarray(variantIds),
          }),
          { maxLength: p.imageCount },
        ),
        prices: fc.array(fc.integer({ min: 0, max: 100_000 }), {
          minLength: p.variantCount,
          maxLength: p.variantCount,
        }),
      })
      .map(({ inventories, images, prices }): ProductAggregate => {
        const variants = variantIds.map((variantId, i): VariantWithInventory => {
          const [active, position, metadata] = p.seed[i] as [boolean, number, JsonObject];
          return {
            ...scope,
            id: variantId,
            product_id: id,
            sku: i % 2 === 0 ? `SKU-${i}` : null,
            barcode: null,
            price: prices[i] as number,
            compare_at_price: i === 1 ? 9999 : null,
            cost_price: 12,
            currency: 'EUR',
            weight: i === 2 ? 1.5 : null,
            is_active: active,
            option_value_ids: options.map((option) => option.values[i % option.values.length]?.id as string),
            position,
            metadata,
            created_at: p.created_at,
            updated_at: p.updated_at,
            inventory: inventories[i] as InventoryRecord,
          };
        });
        return {
          ...scope,
          id,
          name: p.name,
          slug: 'slug',
          description: p.description,
          type: 'physical',
          status: p.status,
          tags: p.tags,
          attributes: p.attributes,
          metadata: p.metadata,
          price: p.price,
          currency: 'EUR',
          created_at: p.created_at,
          updated_at: p.updated_at,
          options,
          variants,
          images: images.map(
            (image, i): ImageRecord => ({
              id: `img_${i}`,
              product_id: id,
              url: image.url,
              alt_text: image.alt_text,
              position: image.position,
              width: image.width,
              height: null,
              variant_ids: image.attached,
            }),
          ),
        };
      });
  });

/** The stock fragments of a product's shown variants, in slot order. */
function fragmentsOf(product: ProductAggregate, slots: readonly string[]): string[] {
  return slots.map((id) =>
    storefrontStockOf(product.variants.find((v) => v.id === id)?.inventory as InventoryRecord),
  );
}

describe('storefront product templates', () => {
  test('filled with the current stock, a template is exactly JSON.stringify(productToWire(p, "storefront")) (random aggregates)', () => {
    fc.assert(
      fc.property(aggregate, (product) => {
        const { template, variant_ids } = storefrontTemplate(product);
        const expected = JSON.stringify(productToWire(product, 'storefront'));
        expect(fillStorefrontTemplate(template, fragmentsOf(product, variant_ids))).toBe(expected);
        expect(storefrontProductJson(product)).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });

  test('filled by variant id (read from the template), a template gives the same text; an unknown variant → undefined', () => {
    fc.assert(
      fc.property(aggregate, (product) => {
        const { template, variant_ids } = storefrontTemplate(product);
        const byId = new Map(product.variants.map((v) => [v.id, storefrontStockOf(v.inventory)]));
        expect(fillStorefrontTemplateBy(template, (id) => byId.get(id))).toBe(
          JSON.stringify(productToWire(product, 'storefront')),
        );
        if (variant_ids.length > 0) {
          const missing = variant_ids[variant_ids.length - 1];
          expect(
            fillStorefrontTemplateBy(template, (id) => (id === missing ? undefined : byId.get(id))),
          ).toBeUndefined();
        }
      }),
      { numRuns: 300 },
    );
    // Ids with quotes and backslashes are JSON-decoded from the template.
    const odd = 'var_"q"\\x';
    const template = `{"inventory":{"id":"inv","variant_id":${JSON.stringify(odd)},${STOREFRONT_SLOT},"metadata":{}}}`;
    expect(fillStorefrontTemplateBy(template, (id) => (id === odd ? 'X' : undefined))).toBe(
      `{"inventory":{"id":"inv","variant_id":${JSON.stringify(odd)},X,"metadata":{}}}`,
    );
    expect(fillStorefrontTemplateBy(`[${STOREFRONT_SLOT}]`, () => 'X')).toBeUndefined();
  });

  test('pre-split at its slots, a template fills to the same text by join; its slot ids are the rendered ones; an unknown variant → undefined (random aggregates)', () => {
    fc.assert(
      fc.property(aggregate, (product) => {
        const { template, variant_ids } = storefrontTemplate(product);
        const split = splitStorefrontTemplate(template);
        expect(split?.variant_ids).toEqual(variant_ids);
        expect(split?.statics.join(STOREFRONT_SLOT)).toBe(template);
        const byId = new Map(product.variants.map((v) => [v.id, storefrontStockOf(v.inventory)]));
        const filled = fillSplitStorefrontTemplate(split as never, (id) => byId.get(id));
        expect(filled).toBe(JSON.stringify(productToWire(product, 'storefront')));
        expect(filled).toBe(fillStorefrontTemplateBy(template, (id) => byId.get(id)));
        if (variant_ids.length > 0) {
          const missing = variant_ids[0];
          expect(
            fillSplitStorefrontTemplate(split as never, (id) => (id === missing ? undefined : byId.get(id))),
          ).toBeUndefined();
        }
      }),
      { numRuns: 300 },
    );
  });

  test('split: `{"variant_id":"v\\"1",<slot>}` → statics around the slot and the decoded id; no slot → one static; a slot without a variant id → undefined', () => {
    const odd = 'v\\"1';
    const template = `{"a":{"variant_id":${JSON.stringify(odd)},${STOREFRONT_SLOT}},"b":{"variant_id":"v2",${STOREFRONT_SLOT}}}`;
    expect(splitStorefrontTemplate(template)).toEqual({
      statics: [`{"a":{"variant_id":${JSON.stringify(odd)},`, '},"b":{"variant_id":"v2",', '}}'],
      variant_ids: [odd, 'v2'],
    });
    const split = splitStorefrontTemplate(template);
    expect(fillSplitStorefrontTemplate(split as never, (id) => (id === odd ? 'X' : 'Y'))).toBe(
      `{"a":{"variant_id":${JSON.stringify(odd)},X},"b":{"variant_id":"v2",Y}}`,
    );
    expect(splitStorefrontTemplate('{"x":1}')).toEqual({ statics: ['{"x":1}'], variant_ids: [] });
    expect(splitStorefrontTemplate(`[${STOREFRONT_SLOT}]`)).toBeUndefined();
    // The id must come after the previous slot: a second slot reusing the first one's key is refused.
    expect(
      splitStorefrontTemplate(`{"variant_id":"v",${STOREFRONT_SLOT}${STOREFRONT_SLOT}}`),
    ).toBeUndefined();
  });

  test('a template only changes with the stock it leaves out: other stock values fill the same template', () => {
    fc.assert(
      fc.property(
        aggregate,
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: -9, max: 99 }),
        (product, t, b, n) => {
          const { template, variant_ids } = storefrontTemplate(product);
          const restocked: ProductAggregate = {
            ...product,
            variants: product.variants.map((v) => ({
              ...v,
              inventory: {
                ...v.inventory,
                track_inventory: t,
                allow_backorder: b,
                on_hand: n + 1,
                reserved: 1,
              },
            })),
          };
          expect(storefrontTemplate(restocked).template).toBe(template);
          expect(fillStorefrontTemplate(template, fragmentsOf(restocked, variant_ids))).toBe(
            JSON.stringify(productToWire(restocked, 'storefront')),
          );
        },
      ),
      { numRuns: 100 },
    );
  });

  test('one slot per active variant, in position order; inactive variants have none', () => {
    const base = fc.sample(aggregate, { numRuns: 1, seed: 7 })[0] as ProductAggregate;
    const inventory = (variant_id: string): InventoryRecord => ({
      ...(base.variants[0]?.inventory ?? ({} as InventoryRecord)),
      ...scope,
      id: `inv_${variant_id}`,
      variant_id,
      product_id: base.id,
      track_inventory: true,
      allow_backorder: false,
      safety_stock: 0,
      on_hand: 7,
      reserved: 2,
      metadata: { secret: 'bin A' },
      created_at: 0,
      updated_at: 0,
    });
    const variant = (id: string, position: number, is_active: boolean): VariantWithInventory => ({
      ...scope,
      id,
      product_id: base.id,
      sku: null,
      barcode: null,
      price: 100,
      compare_at_price: null,
      cost_price: 50,
      currency: 'EUR',
      weight: null,
      is_active,
      option_value_ids: [],
      position,
      metadata: {},
      created_at: 0,
      updated_at: 0,
      inventory: inventory(id),
    });
    const product: ProductAggregate = {
      ...base,
      options: [],
      images: [],
      variants: [variant('var_b', 2, true), variant('var_off', 1, false), variant('var_a', 0, true)],
    };
    const { template, variant_ids } = storefrontTemplate(product);
    expect(variant_ids).toEqual(['var_a', 'var_b']);
    expect(template.split(STOREFRONT_SLOT)).toHaveLength(3);
    expect(template).toContain(
      `"inventory":{"id":"inv_var_a","variant_id":"var_a",${STOREFRONT_SLOT},"metadata":{}}`,
    );
    expect(template).not.toContain('var_off');
    expect(template).not.toContain('bin A');
  });

  test('stock fragments: tracked, no backorder, 7 on hand − 2 reserved → available 5, counts hidden', () => {
    expect(storefrontStockFragment(true, false, 5)).toBe(
      '"track_inventory":true,"allow_backorder":false,"safety_stock":null,"on_hand":null,"reserved":null,"available":5',
    );
    expect(storefrontStockFragment(false, true, -3)).toContain('"allow_backorder":true,');
    expect(storefrontStockFragment(false, true, -3)).toMatch(/"track_inventory":false,.*"available":-3$/);
  });

  test('filling needs one fragment per slot', () => {
    expect(() => fillStorefrontTemplate(`[${STOREFRONT_SLOT}]`, [])).toThrow(/1 slots, got 0/);
    expect(fillStorefrontTemplate('{}', [])).toBe('{}');
  });
});

describe('storefrontListText', () => {
  test('equals JSON.stringify of the list page: 2 products, total 7, has_more, cursor "prod_2"', () => {
    const data = [
      { id: 'prod_1', name: 'A "quoted" é' },
      { id: 'prod_2', tags: [] },
    ];
    const page = {
      data: data.map((p) => JSON.stringify(p)),
      total_count: 7,
      has_more: true,
      next_cursor: 'prod_2',
    };
    expect(storefrontListText(page)).toBe(
      JSON.stringify({ data, total_count: 7, has_more: true, next_cursor: 'prod_2' }),
    );
  });

  test('empty page: {"data":[],"total_count":0,"has_more":false,"next_cursor":null}', () => {
    expect(storefrontListText({ data: [], total_count: 0, has_more: false, next_cursor: null })).toBe(
      '{"data":[],"total_count":0,"has_more":false,"next_cursor":null}',
    );
  });

  test('property: byte for byte JSON.stringify of any page of JSON objects', () => {
    fc.assert(
      fc.property(
        fc.array(fc.dictionary(fc.string(), fc.jsonValue()), { maxLength: 6 }),
        fc.nat(),
        fc.boolean(),
        fc.option(fc.string(), { nil: null }),
        (data, total_count, has_more, next_cursor) => {
          const page = { data: data.map((p) => JSON.stringify(p)), total_count, has_more, next_cursor };
          expect(storefrontListText(page)).toBe(JSON.stringify({ data, total_count, has_more, next_cursor }));
        },
      ),
    );
  });
});
