import { describe, expect, test } from 'vitest';
import type { OptionRecord } from '../ports/storage';
import { CommerceError } from '../shared/errors';
import { assertUniqueCombination, resolveVariantOptions } from './variant-options';

const size: OptionRecord = {
  id: 'opt_size',
  product_id: 'prod_1',
  name: 'Size',
  position: 1,
  values: [
    { id: 'val_s', option_id: 'opt_size', value: 'S', position: 0 },
    { id: 'val_m', option_id: 'opt_size', value: 'M', position: 1 },
  ],
};
const colour: OptionRecord = {
  id: 'opt_colour',
  product_id: 'prod_1',
  name: 'Colour',
  position: 0,
  values: [{ id: 'val_red', option_id: 'opt_colour', value: 'Red', position: 0 }],
};
// Stored out of order on purpose: resolution follows `position`, not array order.
const options = [size, colour];

function errorOf(fn: () => unknown): CommerceError {
  try {
    fn();
  } catch (error) {
    if (CommerceError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a CommerceError');
}

describe('resolveVariantOptions by names', () => {
  test('{ Size: M, Colour: Red } → [val_red, val_m] (option position order)', () => {
    const result = resolveVariantOptions(options, { options: { Size: 'M', Colour: 'Red' } }, { at: [] });
    expect(result).toEqual(['val_red', 'val_m']);
  });

  test('a product without options takes no options: {} → []', () => {
    expect(resolveVariantOptions([], { options: {} }, { at: [] })).toEqual([]);
    expect(resolveVariantOptions([], {}, { at: [] })).toEqual([]);
  });

  test('unknown option name → parameter_invalid on variants[2][options][Material]', () => {
    const error = errorOf(() =>
      resolveVariantOptions(
        options,
        { options: { Size: 'S', Colour: 'Red', Material: 'Wool' } },
        { at: ['variants', 2] },
      ),
    );
    expect(error.code).toBe('parameter_invalid');
    expect(error.param).toBe('variants[2][options][Material]');
  });

  test('missing option → parameter_missing on options[Colour]', () => {
    const error = errorOf(() => resolveVariantOptions(options, { options: { Size: 'S' } }, { at: [] }));
    expect(error.code).toBe('parameter_missing');
    expect(error.param).toBe('options[Colour]');
  });

  test('no options at all on a product with options → parameter_missing on options', () => {
    const error = errorOf(() => resolveVariantOptions(options, {}, { at: [] }));
    expect(error.code).toBe('parameter_missing');
    expect(error.param).toBe('options');
  });

  test("unknown value { Size: 'XL' } → parameter_invalid on options[Size] listing S, M", () => {
    const error = errorOf(() =>
      resolveVariantOptions(options, { options: { Size: 'XL', Colour: 'Red' } }, { at: [] }),
    );
    expect(error.code).toBe('parameter_invalid');
    expect(error.param).toBe('options[Size]');
    expect(error.message).toContain('S, M');
  });
});

describe('resolveVariantOptions by value ids', () => {
  test('[val_m, val_red] → [val_red, val_m]', () => {
    const result = resolveVariantOptions(options, { option_value_ids: ['val_m', 'val_red'] }, { at: [] });
    expect(result).toEqual(['val_red', 'val_m']);
  });

  test('unknown id → parameter_invalid on option_value_ids[1]', () => {
    const error = errorOf(() =>
      resolveVariantOptions(options, { option_value_ids: ['val_m', 'val_nope'] }, { at: [] }),
    );
    expect(error.code).toBe('parameter_invalid');
    expect(error.param).toBe('option_value_ids[1]');
  });

  test('two values of one option → parameter_invalid on the second', () => {
    const error = errorOf(() =>
      resolveVariantOptions(options, { option_value_ids: ['val_s', 'val_m', 'val_red'] }, { at: [] }),
    );
    expect(error.code).toBe('parameter_invalid');
    expect(error.param).toBe('option_value_ids[1]');
  });

  test('an option left out → parameter_missing on option_value_ids', () => {
    const error = errorOf(() => resolveVariantOptions(options, { option_value_ids: ['val_s'] }, { at: [] }));
    expect(error.code).toBe('parameter_missing');
    expect(error.param).toBe('option_value_ids');
  });

  test('both forms at once → parameter_invalid on option_value_ids', () => {
    const error = errorOf(() =>
      resolveVariantOptions(
        options,
        { options: { Size: 'S', Colour: 'Red' }, option_value_ids: ['val_s'] },
        { at: [] },
      ),
    );
    expect(error.param).toBe('option_value_ids');
  });
});

describe('assertUniqueCombination', () => {
  const variants = [{ id: 'var_1', option_value_ids: ['val_red', 'val_s'] }];

  test('the same values in another order → parameter_invalid naming the twin', () => {
    const error = errorOf(() => assertUniqueCombination(variants, ['val_s', 'val_red'], null, 'options'));
    expect(error.code).toBe('parameter_invalid');
    expect(error.param).toBe('options');
    expect(error.data).toEqual({ variant_id: 'var_1' });
  });

  test('the variant itself (update) and other combinations pass', () => {
    expect(() => assertUniqueCombination(variants, ['val_red', 'val_s'], 'var_1', 'options')).not.toThrow();
    expect(() => assertUniqueCombination(variants, ['val_red', 'val_m'], null, 'options')).not.toThrow();
  });

  test('products without options may have several variants', () => {
    expect(() =>
      assertUniqueCombination([{ id: 'var_1', option_value_ids: [] }], [], null, 'options'),
    ).not.toThrow();
  });
});
