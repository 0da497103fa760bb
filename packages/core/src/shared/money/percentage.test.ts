import { describe, expect, it } from 'vitest';
import { CommerceError } from '../errors';
import { applyPercentage, toPercentRational } from './percentage';

describe('applyPercentage', () => {
  it('takes 8.875 % of 1999 as 177 (177.41125)', () => {
    expect(applyPercentage(1999, 8.875)).toBe(177);
  });

  it('takes "12.5" % of 1000 as 125', () => {
    expect(applyPercentage(1000, '12.5')).toBe(125);
  });

  it('rounds 10 % of 5 (0.5) up to 1 and 10 % of 14 (1.4) down to 1', () => {
    expect(applyPercentage(5, 10)).toBe(1);
    expect(applyPercentage(14, 10)).toBe(1);
    expect(applyPercentage(15, 10)).toBe(2);
  });

  it('rounds 10 % of -15 (-1.5) away from zero to -2', () => {
    expect(applyPercentage(-15, 10)).toBe(-2);
  });

  it('accepts an already parsed rational: 33/1 % of 300 is 99', () => {
    expect(applyPercentage(300, { numerator: 33n, denominator: 1n })).toBe(99);
  });

  it('takes 100 % of 1999 as 1999 and 0 % as 0', () => {
    expect(applyPercentage(1999, 100)).toBe(1999);
    expect(applyPercentage(1999, 0)).toBe(0);
  });

  it('rejects a percentage with 7 decimals with parameter_invalid on percent', () => {
    let caught: unknown;
    try {
      applyPercentage(100, '1.1234567');
    } catch (error) {
      caught = error;
    }
    expect(CommerceError.is(caught) && caught.param).toBe('percent');
  });

  it('rejects a fractional amount', () => {
    expect(() => applyPercentage(10.5, 10)).toThrow(RangeError);
  });

  it('toPercentRational passes rationals through and parses the rest', () => {
    const r = { numerator: 1n, denominator: 3n };
    expect(toPercentRational(r)).toBe(r);
    expect(toPercentRational('7.5')).toEqual({ numerator: 75n, denominator: 10n });
  });
});
