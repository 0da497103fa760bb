import { describe, expect, test } from 'vitest';
import { fallbackSlug, slugForProduct, slugify } from './slug';

describe('slugify', () => {
  test("'Blue T-Shirt (Large)!' → 'blue-t-shirt-large'", () => {
    expect(slugify('Blue T-Shirt (Large)!')).toBe('blue-t-shirt-large');
  });

  test("accents are dropped: 'Crème Brûlée' → 'creme-brulee'", () => {
    expect(slugify('Crème Brûlée')).toBe('creme-brulee');
  });

  test("runs of separators collapse and ends are trimmed: '  --Hello__World--  ' → 'hello-world'", () => {
    expect(slugify('  --Hello__World--  ')).toBe('hello-world');
  });

  test("digits are kept: 'iPhone 15 Pro' → 'iphone-15-pro'", () => {
    expect(slugify('iPhone 15 Pro')).toBe('iphone-15-pro');
  });

  test("nothing usable: '日本茶' → ''", () => {
    expect(slugify('日本茶')).toBe('');
  });

  test('always matches the slug pattern or is empty', () => {
    for (const name of ['a', '-a-', 'A  B', '!!!', 'x_y.z', 'Ünïcödé 42', '---']) {
      const slug = slugify(name);
      expect(slug === '' || /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug)).toBe(true);
    }
  });
});

describe('slugForProduct', () => {
  test('a given slug wins over the name', () => {
    expect(slugForProduct({ slug: 'custom', name: 'Blue Shirt' }, 'prod_1')).toBe('custom');
  });

  test("derived from the name: 'Blue Shirt' → 'blue-shirt'", () => {
    expect(slugForProduct({ name: 'Blue Shirt' }, 'prod_1')).toBe('blue-shirt');
  });

  test("falls back to the id: name '★★★', id 'prod_01ABC' → 'prod-01abc'", () => {
    expect(slugForProduct({ name: '★★★' }, 'prod_01ABC')).toBe('prod-01abc');
    expect(fallbackSlug('prod_01ABC')).toBe('prod-01abc');
  });
});
