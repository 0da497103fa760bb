import { describe, expect, test } from 'vitest';
import type { StoreLocaleRecord } from '../ports/storage';
import { configuredLocale, negotiateLocale } from './negotiate';

const locale = (tag: string, overrides: Partial<StoreLocaleRecord> = {}): StoreLocaleRecord => ({
  store_id: 'store_1',
  mode: 'test',
  id: `lcl_${tag}`,
  locale: tag,
  name: tag,
  is_default: false,
  is_active: true,
  created_at: 0,
  ...overrides,
});

const store = [
  locale('en', { is_default: true }),
  locale('ko'),
  locale('fr-CA'),
  locale('de', { is_active: false }),
];

describe('negotiateLocale', () => {
  test('no locales: base text, no Content-Language; a locale asked for is 404', () => {
    expect(negotiateLocale([], {})).toEqual({ content_language: null, translate: null, negotiated: false });
    expect(negotiateLocale([], { accept_language: 'ko' })).toEqual({
      content_language: null,
      translate: null,
      negotiated: false,
    });
    expect(() => negotiateLocale([], { locale: 'ko' })).toThrow(
      expect.objectContaining({ code: 'not_found', param: 'locale' }),
    );
  });

  test('`locale` wins over Accept-Language, matched ignoring case; the default answers the base text', () => {
    expect(negotiateLocale(store, { locale: 'KO', accept_language: 'fr-CA' })).toEqual({
      content_language: 'ko',
      translate: 'ko',
      negotiated: false,
    });
    expect(negotiateLocale(store, { locale: 'en' })).toEqual({
      content_language: 'en',
      translate: null,
      negotiated: false,
    });
  });

  test('a locale not configured, malformed or inactive → 404 param locale', () => {
    for (const bad of ['ja', 'fr', 'de', 'not a tag']) {
      expect(() => negotiateLocale(store, { locale: bad }), bad).toThrow(
        expect.objectContaining({ code: 'not_found', param: 'locale' }),
      );
    }
  });

  test('Accept-Language: the best active match; *, no match or no header → the default', () => {
    expect(negotiateLocale(store, { accept_language: 'ko-KR,ko;q=0.9' })).toEqual({
      content_language: 'ko',
      translate: 'ko',
      negotiated: true,
    });
    expect(negotiateLocale(store, { accept_language: 'fr' }).translate).toBe('fr-CA');
    expect(negotiateLocale(store, { accept_language: 'de, ja' })).toEqual({
      content_language: 'en',
      translate: null,
      negotiated: true,
    });
    expect(negotiateLocale(store, { accept_language: '*' }).translate).toBeNull();
    expect(negotiateLocale(store, {})).toEqual({ content_language: 'en', translate: null, negotiated: true });
  });

  test('without a default locale, the base text has no Content-Language', () => {
    const noDefault = [locale('ko'), locale('fr')];
    expect(negotiateLocale(noDefault, { accept_language: 'ja' })).toEqual({
      content_language: null,
      translate: null,
      negotiated: true,
    });
    expect(negotiateLocale(noDefault, { accept_language: 'ja, ko;q=0.1' }).content_language).toBe('ko');
  });
});

describe('configuredLocale', () => {
  test('an active locale of the store, canonical; anything else 404 param locale', () => {
    expect(configuredLocale(store, 'FR-ca')).toBe('fr-CA');
    for (const bad of ['de', 'ja', 'x y']) {
      expect(() => configuredLocale(store, bad)).toThrow(
        expect.objectContaining({ code: 'not_found', param: 'locale' }),
      );
    }
  });
});
