import type { InventoryInput } from '../inventory/schemas';
import type { IdGenerator } from '../ports/id-generator';
import type {
  ImageRecord,
  InventoryRecord,
  Millis,
  OptionRecord,
  Scope,
  VariantWithInventory,
} from '../ports/storage';
import { formatParam } from '../shared/schemas/parse';
import { storeAmount, storeAmountOrNull } from './money-input';
import type { ImageInput, OptionInput, VariantCreate } from './schemas';

/*
 * Builders of new catalog records from validated requests (docs/contract.md#catalog). Pure apart from the id
 * generator; the services write the records.
 */

/** Options and their values, positioned in request order. */
export function buildOptions(
  inputs: readonly OptionInput[],
  productId: string,
  ids: IdGenerator,
): OptionRecord[] {
  return inputs.map((input, position) => {
    const id = ids.next('opt');
    return {
      id,
      product_id: productId,
      name: input.name,
      position,
      values: input.values.map((value, valuePosition) => ({
        id: ids.next('optval'),
        option_id: id,
        value,
        position: valuePosition,
      })),
    };
  });
}

/**
 * Inventory defaults of a new variant (docs/contract.md#catalog): tracked, no backorders, safety stock 0,
 * nothing on hand, nothing reserved.
 */
export function buildInventory(
  scope: Scope,
  variant: { id: string; product_id: string },
  input: InventoryInput | undefined,
  id: string,
  now: Millis,
): InventoryRecord {
  return {
    id,
    store_id: scope.store_id,
    mode: scope.mode,
    variant_id: variant.id,
    product_id: variant.product_id,
    track_inventory: input?.track_inventory ?? true,
    allow_backorder: input?.allow_backorder ?? false,
    safety_stock: input?.safety_stock ?? 0,
    on_hand: input?.on_hand ?? 0,
    reserved: 0,
    metadata: {},
    created_at: now,
    updated_at: now,
  };
}

export interface BuildVariantInput {
  scope: Scope;
  productId: string;
  /** The store currency: money inputs in another one → 422 `currency_mismatch`. */
  currency: string;
  input: VariantCreate;
  /** Already resolved against the product's options. */
  optionValueIds: string[];
  /** The position when the input gives none (the end of the product's variants). */
  defaultPosition: number;
  /** Where the variant sits in the request, for `param` (`['variants', 0]` or `[]`). */
  at: readonly (string | number)[];
  now: Millis;
  ids: IdGenerator;
}

/** A new variant with its Inventory record; dimensions and `position` as given (decisions §22). */
export function buildVariant(args: BuildVariantInput): VariantWithInventory {
  const { input, currency, now, scope } = args;
  const param = (field: string) => formatParam([...args.at, field]);
  const id = args.ids.next('var');
  return {
    id,
    store_id: scope.store_id,
    mode: scope.mode,
    product_id: args.productId,
    sku: input.sku ?? null,
    barcode: input.barcode ?? null,
    price: storeAmount(input.price, currency, param('price')),
    compare_at_price: storeAmountOrNull(input.compare_at_price, currency, param('compare_at_price')) ?? null,
    cost_price: storeAmountOrNull(input.cost_price, currency, param('cost_price')) ?? null,
    currency,
    weight: input.weight ?? null,
    width: input.width ?? null,
    height: input.height ?? null,
    depth: input.depth ?? null,
    is_active: input.is_active,
    option_value_ids: args.optionValueIds,
    position: input.position ?? args.defaultPosition,
    metadata: input.metadata,
    created_at: now,
    updated_at: now,
    inventory: buildInventory(
      scope,
      { id, product_id: args.productId },
      input.inventory,
      args.ids.next('inv'),
      now,
    ),
  };
}

/** A new image; `position` defaults to `defaultPosition` (after the product's other images). */
export function buildImage(
  input: ImageInput,
  productId: string,
  defaultPosition: number,
  variantIds: string[],
  ids: IdGenerator,
): ImageRecord {
  return {
    id: ids.next('img'),
    product_id: productId,
    url: input.url,
    alt_text: input.alt_text ?? null,
    position: input.position ?? defaultPosition,
    width: input.width ?? null,
    height: input.height ?? null,
    variant_ids: variantIds,
  };
}
