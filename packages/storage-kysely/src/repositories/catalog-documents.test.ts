import { storefrontStockFragment } from '@cartwright/core/internal';
import { describe, expect, it } from 'vitest';
import { splitStorefrontStockText, storefrontStockFragmentOf } from './catalog-documents';

describe('storefront stock text', () => {
  it('"7\\u0001…" → revision 7 and the stock text; null (no document row) → undefined', () => {
    expect(splitStorefrontStockText('7\u0001var_a\u001f25')).toEqual({ rev: 7, stock: 'var_a\u001f25' });
    expect(splitStorefrontStockText('0\u0001')).toEqual({ rev: 0, stock: '' });
    expect(splitStorefrontStockText(null)).toBeUndefined();
  });

  it("finds each variant's entry: flags 2 (tracked, no backorder) and 5 available, flags 1 and −3; an id that ends another id is not matched; unknown → undefined", () => {
    const stock = ['xvar_a\u001f09', 'var_a\u001f25', 'var_b\u001f1-3', 'var_c\u001f30'].join('\u001e');
    expect(storefrontStockFragmentOf(stock, 'var_a')).toBe(storefrontStockFragment(true, false, 5));
    expect(storefrontStockFragmentOf(stock, 'xvar_a')).toBe(storefrontStockFragment(false, false, 9));
    expect(storefrontStockFragmentOf(stock, 'var_b')).toBe(storefrontStockFragment(false, true, -3));
    expect(storefrontStockFragmentOf(stock, 'var_c')).toBe(storefrontStockFragment(true, true, 0));
    expect(storefrontStockFragmentOf(stock, 'ar_a')).toBeUndefined();
    expect(storefrontStockFragmentOf(stock, 'var_d')).toBeUndefined();
    expect(storefrontStockFragmentOf('', 'var_a')).toBeUndefined();
    // An id that starts another id is not matched either (the entry must continue with U+001F).
    expect(storefrontStockFragmentOf('var_ab\u001f25', 'var_a')).toBeUndefined();
    expect(storefrontStockFragmentOf('var_ab\u001f25\u001evar_a\u001f09', 'var_a')).toBe(
      storefrontStockFragment(false, false, 9),
    );
    expect(storefrontStockFragmentOf('var_a\u001f312345', 'var_a')).toBe(
      storefrontStockFragment(true, true, 12345),
    );
  });
});
