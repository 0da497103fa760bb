import type { OrderLineRecord, PurchasableVariant, Repositories, Scope } from '../ports/storage';
import { translateLineNames, translationLookup } from './translate';

/**
 * An order's lines with their names in the cart's language (decisions §21): the product name, the
 * variant name and the option values as the line shows them, translated where the store has
 * translations in `locale` (the base text elsewhere). Nothing changes for a null locale, a
 * locale the store no longer has (or no longer active), or its default locale. Reads the
 * translations of the lines' products in one statement, then, only when there are some, the
 * products whose variants have option values (their option ids).
 */
export async function linesInLocale(
  tx: Repositories,
  scope: Scope,
  locale: string | null,
  lines: readonly OrderLineRecord[],
  variants: ReadonlyMap<string, PurchasableVariant>,
): Promise<OrderLineRecord[]> {
  if (locale === null || lines.length === 0) return [...lines];
  const chosen = (await tx.locales.list(scope)).find((l) => l.locale === locale && l.is_active);
  if (chosen === undefined || chosen.is_default) return [...lines];
  const productIds = [...new Set(lines.map((line) => line.product_id))];
  const texts = await tx.translations.listForOwners(scope, locale, productIds);
  if (texts.length === 0) return [...lines];
  const lookup = translationLookup(texts);
  const withOptions = new Set(
    lines
      .filter((line) => (variants.get(line.variant_id)?.variant.option_value_ids.length ?? 0) > 0)
      .map((line) => line.product_id),
  );
  const products = new Map(
    (await Promise.all([...withOptions].map((id) => tx.products.get(scope, id))))
      .filter((product) => product !== null)
      .map((product) => [product.id, product]),
  );
  return lines.map((line) => {
    const entry = variants.get(line.variant_id);
    if (entry === undefined) return line;
    const names = translateLineNames(entry, products.get(line.product_id) ?? { options: [] }, lookup);
    return { ...line, ...names };
  });
}
