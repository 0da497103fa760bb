import type { StoreLocaleRecord } from '../ports/storage';
import { CommerceError } from '../shared/errors';
import { canonicalLocale, matchAcceptLanguage } from './tags';

/** The language a storefront read answers in (decisions §21). */
export interface StorefrontLocale {
  /**
   * The `Content-Language` of the response: the locale whose text it holds — the one chosen, or
   * the default locale's tag for the base text; null while the store has no locales (or base
   * text with no default locale), when the header is left out.
   */
  content_language: string | null;
  /** The locale to translate into; null for the base text (no locales, or the default chosen). */
  translate: string | null;
  /** Whether `Accept-Language` chose it (no `locale` given, the store has locales): `Vary: Accept-Language`. */
  negotiated: boolean;
}

/** What a storefront read names: the `locale` parameter and the `Accept-Language` header. */
export interface StorefrontLocaleRequest {
  locale?: string | undefined;
  accept_language?: string | undefined;
}

/**
 * The store's active locale a request names (a cart's `locale`), as its canonical tag: matched
 * ignoring case; anything else → 404 `param: locale` (decisions §21).
 */
export function configuredLocale(locales: readonly StoreLocaleRecord[], requested: string): string {
  const tag = canonicalLocale(requested);
  const found =
    tag === null ? undefined : locales.find((locale) => locale.is_active && locale.locale === tag);
  if (found === undefined) {
    throw new CommerceError('not_found', `The store has no locale '${requested}'`, { param: 'locale' });
  }
  return found.locale;
}

/** The language a read is answered in: the locale to translate into (null: base text). */
export interface ReadLanguage {
  translate: string | null;
  /** The catalog version the storage's read model answered the locales under (see `StorefrontReadOptions`). */
  version?: number | null | undefined;
}

/** The base text. */
export const BASE_TEXT: ReadLanguage = Object.freeze({ translate: null });

const BASE: StorefrontLocale = Object.freeze({ content_language: null, translate: null, negotiated: false });

/**
 * Chooses the language of a storefront read among the store's locales (decisions §21): the
 * `locale` given (an active locale of the store, matched ignoring case, else 404 `param:
 * locale`); without one, the best `Accept-Language` match among the active locales
 * (`matchAcceptLanguage`); `*`, no header or no match → the default locale. The default locale
 * (and a store without locales) answers the base text.
 */
export function negotiateLocale(
  locales: readonly StoreLocaleRecord[],
  request: StorefrontLocaleRequest,
): StorefrontLocale {
  const active = locales.filter((locale) => locale.is_active);
  const fallback = locales.find((locale) => locale.is_default) ?? null;
  let chosen: StoreLocaleRecord | null = null;
  if (request.locale !== undefined) {
    const tag = canonicalLocale(request.locale);
    chosen = tag === null ? null : (active.find((locale) => locale.locale === tag) ?? null);
    if (chosen === null) {
      throw new CommerceError('not_found', `The store has no locale '${request.locale}'`, {
        param: 'locale',
      });
    }
  } else if (locales.length === 0) {
    return BASE;
  } else if (request.accept_language !== undefined && request.accept_language !== '') {
    const tag = matchAcceptLanguage(
      request.accept_language,
      active.map((locale) => locale.locale),
    );
    chosen = tag === null ? null : (active.find((locale) => locale.locale === tag) ?? null);
  }
  const negotiated = request.locale === undefined;
  if (chosen === null || chosen.is_default) {
    return { content_language: fallback?.locale ?? null, translate: null, negotiated };
  }
  return { content_language: chosen.locale, translate: chosen.locale, negotiated };
}
