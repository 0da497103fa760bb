import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CommerceError } from '../shared/errors';
import { computeTax, exclusiveTax, inclusiveTax, parseTaxRate } from './tax';

describe('exclusive tax: round(amount × rate / 100)', () => {
  it('8.875 % on 1999 exclusive is 177 (177.41125)', () => {
    expect(exclusiveTax(1999, 8.875)).toBe(177);
  });

  it('"8.875" % given as a string on 1999 is 177 too', () => {
    expect(exclusiveTax(1999, '8.875')).toBe(177);
  });

  it('20 % on 1000 exclusive is 200', () => {
    expect(exclusiveTax(1000, 20)).toBe(200);
  });

  it('10 % on 5 exclusive is 1 (0.5 rounds away from zero), on 14 is 1 (1.4)', () => {
    expect(exclusiveTax(5, 10)).toBe(1);
    expect(exclusiveTax(14, 10)).toBe(1);
  });

  it('0 % on 1999 is 0, and any rate on 0 is 0', () => {
    expect(exclusiveTax(1999, 0)).toBe(0);
    expect(exclusiveTax(0, 8.875)).toBe(0);
  });
});

describe('inclusive tax: amount − round(amount / (1 + rate / 100))', () => {
  it('8.875 % inside 1999 is 163 (net 1836.04 → 1836)', () => {
    expect(inclusiveTax(1999, 8.875)).toBe(163);
  });

  it('20 % inside 1200 is 200 (net 1000)', () => {
    expect(inclusiveTax(1200, 20)).toBe(200);
  });

  it('100 % inside 3 is 1 (net 1.5 rounds up to 2)', () => {
    expect(inclusiveTax(3, 100)).toBe(1);
  });

  it('0 % inside 1999 is 0', () => {
    expect(inclusiveTax(1999, 0)).toBe(0);
  });
});

describe('computeTax and parseTaxRate', () => {
  it('chooses inclusive or exclusive: 20 % of 1200 is 240 on top, 200 inside', () => {
    expect(computeTax(1200, 20, false)).toBe(240);
    expect(computeTax(1200, 20, true)).toBe(200);
  });

  it('accepts a parsed rate: 8875/1000 % on 1999 is 177', () => {
    expect(computeTax(1999, parseTaxRate(8.875), false)).toBe(177);
  });

  it('refuses a negative rate and a rate with 7 decimals, on param tax_rate', () => {
    for (const rate of [-1, '8.8750001']) {
      let caught: unknown;
      try {
        parseTaxRate(rate);
      } catch (error) {
        caught = error;
      }
      expect(CommerceError.is(caught) && [caught.code, caught.param]).toEqual([
        'parameter_invalid',
        'tax_rate',
      ]);
    }
    expect(() => parseTaxRate({ numerator: -1n, denominator: 1n })).toThrow(CommerceError);
  });

  const amounts = fc.integer({ min: 0, max: 100_000_000 });
  const rates = fc.integer({ min: 0, max: 100_000 }).map((thousandths) => thousandths / 1000);

  it('is never negative, and the tax inside a price never exceeds the price', () => {
    fc.assert(
      fc.property(amounts, rates, (amount, rate) => {
        const outside = exclusiveTax(amount, rate);
        const inside = inclusiveTax(amount, rate);
        expect(outside).toBeGreaterThanOrEqual(0);
        expect(inside).toBeGreaterThanOrEqual(0);
        expect(inside).toBeLessThanOrEqual(amount);
        expect(inside).toBeLessThanOrEqual(outside + 1);
      }),
    );
  });

  it('inclusive tax on net + exclusive tax returns that exclusive tax, within one unit', () => {
    fc.assert(
      fc.property(amounts, rates, (net, rate) => {
        const gross = net + exclusiveTax(net, rate);
        expect(Math.abs(inclusiveTax(gross, rate) - exclusiveTax(net, rate))).toBeLessThanOrEqual(1);
      }),
    );
  });
});
