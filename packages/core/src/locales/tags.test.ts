import { describe, expect, test } from 'vitest';
import { canonicalLocale, matchAcceptLanguage, parseAcceptLanguage } from './tags';

describe('canonicalLocale', () => {
  test('canonical case for languages, scripts and regions', () => {
    expect(canonicalLocale('ko')).toBe('ko');
    expect(canonicalLocale('EN')).toBe('en');
    expect(canonicalLocale('en-us')).toBe('en-US');
    expect(canonicalLocale('EN-gb')).toBe('en-GB');
    expect(canonicalLocale('zh-hant-tw')).toBe('zh-Hant-TW');
    expect(canonicalLocale('sr-latn')).toBe('sr-Latn');
    expect(canonicalLocale('es-419')).toBe('es-419');
  });

  test('not a tag: null', () => {
    for (const bad of [
      '',
      'en_US',
      'english!',
      'e',
      '-en',
      'en-',
      'en--US',
      '123',
      '*',
      'a'.repeat(36),
      'en US',
    ]) {
      expect(canonicalLocale(bad), bad).toBeNull();
    }
  });
});

describe('parseAcceptLanguage', () => {
  test('by q descending, then as written; q=0 and malformed entries left out', () => {
    expect(parseAcceptLanguage('fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5')).toEqual([
      { range: 'fr-ch', q: 1 },
      { range: 'fr', q: 0.9 },
      { range: 'en', q: 0.8 },
      { range: 'de', q: 0.7 },
      { range: '*', q: 0.5 },
    ]);
    expect(parseAcceptLanguage('de;q=0.5, ko, ja;q=0, en;q=0.5, x y, it;q=2, es;foo=1')).toEqual([
      { range: 'ko', q: 1 },
      { range: 'de', q: 0.5 },
      { range: 'en', q: 0.5 },
    ]);
    expect(parseAcceptLanguage('')).toEqual([]);
  });
});

describe('matchAcceptLanguage', () => {
  const available = ['en-US', 'ko', 'fr', 'zh-Hant'];

  test('an exact match, ignoring case', () => {
    expect(matchAcceptLanguage('KO', available)).toBe('ko');
    expect(matchAcceptLanguage('en-us', available)).toBe('en-US');
  });

  test('a region the store lacks falls back to the language: ko-KR → ko', () => {
    expect(matchAcceptLanguage('ko-KR', available)).toBe('ko');
    expect(matchAcceptLanguage('fr-CA,en;q=0.5', available)).toBe('fr');
    expect(matchAcceptLanguage('zh-Hant-TW', available)).toBe('zh-Hant');
  });

  test('a language matches a more specific tag of the store: en → en-US, en-GB → en-US', () => {
    expect(matchAcceptLanguage('en', available)).toBe('en-US');
    expect(matchAcceptLanguage('en-GB', available)).toBe('en-US');
  });

  test('q-weights decide, not the order written', () => {
    expect(matchAcceptLanguage('fr;q=0.4, ko;q=0.9', available)).toBe('ko');
    expect(matchAcceptLanguage('de, fr;q=0.1, ko;q=0.2', available)).toBe('ko');
  });

  test('q=0 excludes; no match, * first or nothing available → null (the default)', () => {
    expect(matchAcceptLanguage('ko;q=0', available)).toBeNull();
    expect(matchAcceptLanguage('de, ja', available)).toBeNull();
    expect(matchAcceptLanguage('*', available)).toBeNull();
    expect(matchAcceptLanguage('*, ko;q=0.5', available)).toBeNull();
    expect(matchAcceptLanguage('de, *;q=0.5, ko;q=0.1', available)).toBeNull();
    expect(matchAcceptLanguage('ko', [])).toBeNull();
  });
});
