import { describe, expect, it } from 'vitest';
import { makeCode, makeDiscount } from '../pricing-fixtures';
import { orderDiscounts } from './discount-order';

describe('orderDiscounts', () => {
  it('puts automatic discounts first by created_at (then id), then codes in the order given', () => {
    const late = makeDiscount({ id: 'disc_late', created_at: 20 });
    const earlyB = makeDiscount({ id: 'disc_b', created_at: 10 });
    const earlyA = makeDiscount({ id: 'disc_a', created_at: 10 });
    const zeta = makeCode('ZETA', { created_at: 1 });
    const alpha = makeCode('ALPHA', { created_at: 0 });
    const ordered = orderDiscounts([late, earlyB, earlyA], [zeta, alpha]);
    expect(ordered.map((o) => o.discount.id)).toEqual([
      'disc_a',
      'disc_b',
      'disc_late',
      'disc_ZETA',
      'disc_ALPHA',
    ]);
    expect(ordered.map((o) => o.source)).toEqual(['automatic', 'automatic', 'automatic', 'code', 'code']);
  });

  it('applies a discount listed twice once, at its first place', () => {
    const a = makeCode('A');
    const auto = makeDiscount({ id: 'disc_A' });
    expect(orderDiscounts([auto], [a, a]).map((o) => o.source)).toEqual(['automatic']);
    expect(orderDiscounts([], [a, makeCode('B'), a]).map((o) => o.discount.code)).toEqual(['A', 'B']);
  });

  it('does not reorder its input arrays', () => {
    const automatic = [
      makeDiscount({ id: 'disc_2', created_at: 2 }),
      makeDiscount({ id: 'disc_1', created_at: 1 }),
    ];
    orderDiscounts(automatic, []);
    expect(automatic.map((d) => d.id)).toEqual(['disc_2', 'disc_1']);
  });
});
