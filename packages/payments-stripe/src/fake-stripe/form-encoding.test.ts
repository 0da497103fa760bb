import { describe, expect, test } from 'vitest';
import { canonicalParams, parseForm } from './form-encoding';

describe('parseForm (Stripe bracket notation)', () => {
  test('flat pairs decode percent-escapes and +: amount=4200&currency=usd&description=a+b%26c', () => {
    expect(parseForm('amount=4200&currency=usd&description=a+b%26c')).toEqual({
      amount: '4200',
      currency: 'usd',
      description: 'a b&c',
    });
  });

  test('metadata[order_id]=ord_1&metadata[mode]=test nests an object', () => {
    expect(parseForm('metadata[order_id]=ord_1&metadata[mode]=test')).toEqual({
      metadata: { order_id: 'ord_1', mode: 'test' },
    });
  });

  test('encoded brackets metadata%5Bk%5D=v read the same as raw ones', () => {
    expect(parseForm('metadata%5Bk%5D=v')).toEqual({ metadata: { k: 'v' } });
  });

  test('indexed arrays types[1]=b&types[0]=a become [a, b]; empty brackets append', () => {
    expect(parseForm('types[1]=b&types[0]=a')).toEqual({ types: ['a', 'b'] });
    expect(parseForm('types[]=a&types[]=b')).toEqual({ types: ['a', 'b'] });
  });

  test('deep nesting automatic_payment_methods[enabled]=true&a[b][0][c]=d', () => {
    expect(parseForm('automatic_payment_methods[enabled]=true&a[b][0][c]=d')).toEqual({
      automatic_payment_methods: { enabled: 'true' },
      a: { b: [{ c: 'd' }] },
    });
  });

  test('an empty body is {}', () => {
    expect(parseForm('')).toEqual({});
  });
});

describe('canonicalParams', () => {
  test('key order does not matter, values do', () => {
    expect(canonicalParams(parseForm('a=1&b=2'))).toBe(canonicalParams(parseForm('b=2&a=1')));
    expect(canonicalParams(parseForm('a=1&b=2'))).not.toBe(canonicalParams(parseForm('a=1&b=3')));
    expect(canonicalParams(parseForm('m[x]=1'))).not.toBe(canonicalParams(parseForm('m[y]=1')));
  });
});
