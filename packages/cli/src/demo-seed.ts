import type { Engine, In, Scope } from '@cartwright/core';
import type {
  DiscountCreateSchema,
  ProductCreateSchema,
  ShippingMethodCreateSchema,
} from '@cartwright/core/schemas';

const image = (name: string) => ({
  url: `https://images.cartwright.dev/demo/${name}.jpg`,
  alt_text: name.replace(/-/g, ' '),
  width: 1200,
  height: 1200,
});

/** A small, realistic catalog: options, variants, images, stock, shipping, an automatic and a code discount. */
const PRODUCTS: In<typeof ProductCreateSchema>[] = [
  {
    name: 'Classic Tee',
    description: 'Heavyweight cotton t-shirt, garment-dyed.',
    status: 'active',
    tags: ['apparel', 'cotton'],
    attributes: { material: '100% cotton', fit: 'regular' },
    images: [image('classic-tee-black'), image('classic-tee-white')],
    options: [
      { name: 'Size', values: ['S', 'M', 'L'] },
      { name: 'Color', values: ['Black', 'White'] },
    ],
    variants: ['S', 'M', 'L'].flatMap((size) =>
      ['Black', 'White'].map((color) => ({
        sku: `TEE-${size}-${color.toUpperCase()}`,
        price: 2500,
        compare_at_price: 3000,
        cost_price: 900,
        weight: 220,
        options: { Size: size, Color: color },
        inventory: { on_hand: size === 'M' ? 40 : 15, safety_stock: 3 },
      })),
    ),
  },
  {
    name: 'Canvas Tote',
    description: 'Sturdy 12 oz canvas tote with inner pocket.',
    status: 'active',
    tags: ['accessories'],
    images: [image('canvas-tote')],
    variants: [
      {
        sku: 'TOTE-NATURAL',
        price: 1800,
        cost_price: 600,
        weight: 300,
        inventory: { on_hand: 25, safety_stock: 5 },
      },
    ],
  },
  {
    name: 'Ceramic Mug',
    description: 'Stoneware mug, 350 ml, dishwasher safe.',
    status: 'active',
    tags: ['kitchen'],
    images: [image('ceramic-mug')],
    options: [{ name: 'Color', values: ['Sand', 'Slate'] }],
    variants: [
      { sku: 'MUG-SAND', price: 1400, weight: 400, options: { Color: 'Sand' }, inventory: { on_hand: 30 } },
      {
        sku: 'MUG-SLATE',
        price: 1400,
        weight: 400,
        options: { Color: 'Slate' },
        inventory: { on_hand: 4, safety_stock: 5 },
      },
    ],
  },
  {
    name: 'Gift Card',
    description: 'Delivered by e-mail.',
    type: 'digital',
    status: 'active',
    tags: ['gift'],
    variants: [{ sku: 'GIFT-50', price: 5000, inventory: { track_inventory: false } }],
  },
];

const SHIPPING_METHODS: In<typeof ShippingMethodCreateSchema>[] = [
  {
    name: 'Standard',
    description: '3–5 business days',
    price: 500,
    free_shipping_threshold: 5000,
    position: 1,
  },
  { name: 'Express', description: 'Next business day', price: 1500, position: 2 },
];

const DISCOUNTS: In<typeof DiscountCreateSchema>[] = [
  {
    name: '10 % off orders over 100',
    type: 'automatic',
    value_type: 'percentage',
    value: 10,
    minimum_amount: 10000,
  },
  {
    name: 'Welcome 5 off',
    type: 'code',
    code: 'WELCOME5',
    value_type: 'fixed',
    value: 500,
    per_customer_limit: 1,
  },
];

/**
 * Loads the demo catalog into an empty store (`COMMERCE_SEED=demo`, `cartwright seed --demo`).
 * Inputs go through the engine's front door, validated like the HTTP API's. Returns false when the store already has
 * products (nothing is changed then).
 */
export async function seedDemo(engine: Engine, scope: Scope): Promise<boolean> {
  const store = engine.forStore(scope);
  const existing = await store.products.list({ limit: 1 });
  if (existing.total_count > 0) return false;
  for (const product of PRODUCTS) await store.products.create(product);
  for (const method of SHIPPING_METHODS) await store.shippingMethods.create(method);
  for (const discount of DISCOUNTS) await store.discounts.create(discount);
  return true;
}
