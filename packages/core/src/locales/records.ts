import type { ProductAggregate, Repositories, Scope } from '../ports/storage';
import type { ReadLanguage } from './negotiate';
import { translateNamed, translateProduct, translationLookup } from './translate';

/**
 * Records read in a language (decisions §21), for the storefront reads that translate them: the
 * translations of all of them are read in one statement (`TranslationRepository.listForOwners`),
 * then applied with the base text as fallback. The records as they are for the base text.
 */

/** Products (name, description, option names, option values) in `language`. */
export async function productsIn<P extends ProductAggregate>(
  tx: Repositories,
  scope: Scope,
  language: ReadLanguage,
  products: P[],
): Promise<P[]> {
  if (language.translate === null || products.length === 0) return products;
  const lookup = translationLookup(
    await tx.translations.listForOwners(
      scope,
      language.translate,
      products.map((product) => product.id),
    ),
  );
  return products.map((product) => translateProduct(product, lookup));
}

/** Categories, collections or shipping methods (name, description) in `language`. */
export async function namedIn<R extends { id: string; name: string; description: string | null }>(
  tx: Repositories,
  scope: Scope,
  entity_type: 'category' | 'collection' | 'shipping_method',
  language: ReadLanguage,
  records: R[],
): Promise<R[]> {
  if (language.translate === null || records.length === 0) return records;
  const lookup = translationLookup(
    await tx.translations.listForOwners(
      scope,
      language.translate,
      records.map((record) => record.id),
    ),
  );
  return records.map((record) => translateNamed(entity_type, record, lookup));
}
