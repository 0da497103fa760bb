import type {
  ProductAggregate,
  PurchasableVariant,
  TranslatableEntityType,
  TranslationRecord,
} from '../ports/storage';

/**
 * Applying translations (decisions §21): every translated field replaces the base text, every
 * other keeps it. Pure functions over records, before they are turned into wire objects, so that
 * each resource's wire function stays the only rendering of it.
 */

/** The translations of one locale, by entity and field. */
export type TranslationLookup = ReadonlyMap<string, string>;

const keyOf = (entity_type: TranslatableEntityType, entity_id: string, field: string) =>
  `${entity_type}\u0000${entity_id}\u0000${field}`;

/** A {@link TranslationLookup} of translations (of one locale). */
export function translationLookup(
  records: readonly Pick<TranslationRecord, 'entity_type' | 'entity_id' | 'field' | 'value'>[],
): TranslationLookup {
  const lookup = new Map<string, string>();
  for (const record of records)
    lookup.set(keyOf(record.entity_type, record.entity_id, record.field), record.value);
  return lookup;
}

/** The translated text of one field, or undefined (the base text applies). */
export function translated(
  lookup: TranslationLookup,
  entity_type: TranslatableEntityType,
  entity_id: string,
  field: string,
): string | undefined {
  return lookup.get(keyOf(entity_type, entity_id, field));
}

/**
 * A product with its name, description, option names and option values translated (the same
 * object when the lookup holds none of them).
 */
export function translateProduct<P extends ProductAggregate>(product: P, lookup: TranslationLookup): P {
  if (lookup.size === 0) return product;
  let changed = false;
  const options = product.options.map((option) => {
    const name = translated(lookup, 'option', option.id, 'name');
    let valuesChanged = false;
    const values = option.values.map((value) => {
      const text = translated(lookup, 'option_value', value.id, 'value');
      if (text === undefined) return value;
      valuesChanged = true;
      return { ...value, value: text };
    });
    if (name === undefined && !valuesChanged) return option;
    changed = true;
    return { ...option, name: name ?? option.name, values };
  });
  const name = translated(lookup, 'product', product.id, 'name');
  const description = translated(lookup, 'product', product.id, 'description');
  if (!changed && name === undefined && description === undefined) return product;
  return {
    ...product,
    name: name ?? product.name,
    description: description ?? product.description,
    options,
  };
}

/** A record with a `name` and `description` (shipping method, category, collection), translated. */
export function translateNamed<R extends { id: string; name: string; description: string | null }>(
  entity_type: Extract<TranslatableEntityType, 'category' | 'collection' | 'shipping_method'>,
  record: R,
  lookup: TranslationLookup,
): R {
  const name = translated(lookup, entity_type, record.id, 'name');
  const description = translated(lookup, entity_type, record.id, 'description');
  if (name === undefined && description === undefined) return record;
  return { ...record, name: name ?? record.name, description: description ?? record.description };
}

/** The names an order line snapshots (docs/contract.md#checkout): product, variant, option values. */
export interface LineNames {
  product_name: string;
  variant_name: string;
  option_values: Record<string, string>;
}

/**
 * An order line's names in a locale: the product's name, the variant's option values (`variant_name`
 * joins them with " / " in the variant's order, as the base name does, or is the product name
 * without options) and `option_values` keyed by the translated option names. `product` is the
 * variant's product as stored (its options give the ids the translations name).
 */
export function translateLineNames(
  entry: Pick<PurchasableVariant, 'variant_name' | 'option_values'> & {
    product: { id: string; name: string };
    variant: { option_value_ids: string[] };
  },
  product: Pick<ProductAggregate, 'options'>,
  lookup: TranslationLookup,
): LineNames {
  const product_name = translated(lookup, 'product', entry.product.id, 'name') ?? entry.product.name;
  const values = new Map<string, { optionId: string; optionName: string; value: string }>();
  for (const option of product.options) {
    for (const value of option.values) {
      values.set(value.id, { optionId: option.id, optionName: option.name, value: value.value });
    }
  }
  const names: string[] = [];
  for (const id of entry.variant.option_value_ids) {
    const value = values.get(id);
    if (value !== undefined) names.push(translated(lookup, 'option_value', id, 'value') ?? value.value);
  }
  const option_values: Record<string, string> = {};
  for (const [optionName, valueName] of Object.entries(entry.option_values)) {
    const option = product.options.find((o) => o.name === optionName);
    const value = option?.values.find(
      (v) => v.value === valueName && entry.variant.option_value_ids.includes(v.id),
    );
    const name = option ? (translated(lookup, 'option', option.id, 'name') ?? optionName) : optionName;
    option_values[name] = value
      ? (translated(lookup, 'option_value', value.id, 'value') ?? valueName)
      : valueName;
  }
  return {
    product_name,
    variant_name: names.length > 0 ? names.join(' / ') : product_name,
    option_values,
  };
}
