/**
 * A variant's display name (decisions §9): its option values joined by " / " in the order of the
 * product's options (`Red / Large`), or the product name when it has none.
 *
 * @example variantNameOf('T-Shirt', ['Red', 'Large']) // 'Red / Large'
 * @example variantNameOf('Gift Card', []) // 'Gift Card'
 */
export function variantNameOf(productName: string, optionValues: readonly string[]): string {
  return optionValues.length > 0 ? optionValues.join(' / ') : productName;
}
