import { describe, expect, it } from 'vitest';
import { makeCondition as cond, makeLine } from '../pricing-fixtures';
import {
  customerMatchesConditions,
  eligibleLines,
  hasLineConditions,
  lineMatchesConditions,
  regionMatchesConditions,
} from './discount-conditions';

const shirt = makeLine('shirt', 1000, 1, ['summer', 'cotton']);
const mug = makeLine('mug', 500, 1, ['kitchen']);

describe('line conditions', () => {
  it('product in [prod_shirt] matches the shirt, not the mug', () => {
    const c = [cond('product', 'in', ['prod_shirt'])];
    expect(lineMatchesConditions(shirt, c)).toBe(true);
    expect(lineMatchesConditions(mug, c)).toBe(false);
  });

  it('product not_in [prod_shirt] matches the mug, not the shirt', () => {
    const c = [cond('product', 'not_in', ['prod_shirt'])];
    expect(eligibleLines([shirt, mug], c)).toEqual([mug]);
  });

  it('variant in [var_mug] matches the mug; variant not_in [var_mug] the shirt', () => {
    expect(eligibleLines([shirt, mug], [cond('variant', 'in', ['var_mug'])])).toEqual([mug]);
    expect(eligibleLines([shirt, mug], [cond('variant', 'not_in', ['var_mug'])])).toEqual([shirt]);
  });

  it('product_tag in [cotton, wool] matches the shirt (tags intersect); not_in matches the mug', () => {
    expect(eligibleLines([shirt, mug], [cond('product_tag', 'in', ['cotton', 'wool'])])).toEqual([shirt]);
    expect(eligibleLines([shirt, mug], [cond('product_tag', 'not_in', ['cotton', 'wool'])])).toEqual([mug]);
  });

  it('tags compare case-sensitively: product_tag in [Cotton] does not match tag cotton', () => {
    expect(lineMatchesConditions(shirt, [cond('product_tag', 'in', ['Cotton'])])).toBe(false);
  });

  it('all line conditions must hold: tag summer AND not product prod_shirt matches nothing', () => {
    const c = [cond('product_tag', 'in', ['summer']), cond('product', 'not_in', ['prod_shirt'])];
    expect(eligibleLines([shirt, mug], c)).toEqual([]);
  });

  it('without line conditions every line is eligible; customer conditions do not filter lines', () => {
    expect(eligibleLines([shirt, mug], [])).toEqual([shirt, mug]);
    expect(eligibleLines([shirt, mug], [cond('customer', 'in', ['cus_1'])])).toEqual([shirt, mug]);
    expect(hasLineConditions([cond('customer_tag', 'in', ['vip'])])).toBe(false);
    expect(hasLineConditions([cond('variant', 'in', [])])).toBe(true);
  });

  it('in [] matches nothing and not_in [] matches everything', () => {
    expect(eligibleLines([shirt, mug], [cond('product', 'in', [])])).toEqual([]);
    expect(eligibleLines([shirt, mug], [cond('product', 'not_in', [])])).toEqual([shirt, mug]);
  });
});

describe('customer conditions', () => {
  const alice = { id: 'cus_alice', email: 'Alice@Example.com', tags: ['vip'] };
  const guest = { id: null, email: null, tags: [] };

  it('customer in [cus_alice] matches Alice by id', () => {
    expect(customerMatchesConditions(alice, [cond('customer', 'in', ['cus_alice'])])).toBe(true);
    expect(customerMatchesConditions(alice, [cond('customer', 'in', ['cus_bob'])])).toBe(false);
  });

  it('customer in [alice@example.com] matches Alice by e-mail, case-insensitively', () => {
    expect(customerMatchesConditions(alice, [cond('customer', 'in', ['ALICE@example.COM'])])).toBe(true);
  });

  it('customer not_in [cus_alice] refuses Alice and admits an anonymous guest', () => {
    const c = [cond('customer', 'not_in', ['cus_alice'])];
    expect(customerMatchesConditions(alice, c)).toBe(false);
    expect(customerMatchesConditions(guest, c)).toBe(true);
  });

  it('an anonymous guest is in no customer list', () => {
    expect(customerMatchesConditions(guest, [cond('customer', 'in', ['cus_alice'])])).toBe(false);
  });

  it('customer_tag in [vip] matches Alice; customer_tag not_in [vip] refuses her', () => {
    expect(customerMatchesConditions(alice, [cond('customer_tag', 'in', ['vip', 'staff'])])).toBe(true);
    expect(customerMatchesConditions(alice, [cond('customer_tag', 'not_in', ['vip'])])).toBe(false);
    expect(customerMatchesConditions(guest, [cond('customer_tag', 'in', ['vip'])])).toBe(false);
  });

  it('line conditions are ignored when judging the customer', () => {
    expect(customerMatchesConditions(guest, [cond('product', 'in', [])])).toBe(true);
  });
});

describe('region conditions (decisions §19)', () => {
  it('in [reg_eu] matches a cart in reg_eu only; not_in [reg_eu] every other cart, one without a region too', () => {
    expect(regionMatchesConditions('reg_eu', [cond('region', 'in', ['reg_eu'])])).toBe(true);
    expect(regionMatchesConditions('reg_us', [cond('region', 'in', ['reg_eu'])])).toBe(false);
    expect(regionMatchesConditions(null, [cond('region', 'in', ['reg_eu'])])).toBe(false);
    expect(regionMatchesConditions('reg_eu', [cond('region', 'not_in', ['reg_eu'])])).toBe(false);
    expect(regionMatchesConditions('reg_us', [cond('region', 'not_in', ['reg_eu'])])).toBe(true);
    expect(regionMatchesConditions(null, [cond('region', 'not_in', ['reg_eu'])])).toBe(true);
  });
  it('other condition types are ignored, and region conditions filter no line nor customer', () => {
    expect(regionMatchesConditions(null, [cond('product', 'in', [])])).toBe(true);
    expect(eligibleLines([shirt, mug], [cond('region', 'in', [])])).toEqual([shirt, mug]);
    expect(hasLineConditions([cond('region', 'in', ['reg_eu'])])).toBe(false);
    expect(customerMatchesConditions({ id: null, email: null, tags: [] }, [cond('region', 'in', [])])).toBe(
      true,
    );
  });
});
