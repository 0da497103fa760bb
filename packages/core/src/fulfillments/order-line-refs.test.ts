import { describe, expect, test } from 'vitest';
import { orderLinePicker } from './order-line-refs';

describe('orderLinePicker', () => {
  const lines = [{ id: 'line_a' }, { id: 'line_b' }];

  test('resolves each line of the order once, in request order', () => {
    const pick = orderLinePicker(lines);
    expect(pick('line_b', 0)).toBe(lines[1]);
    expect(pick('line_a', 1)).toBe(lines[0]);
  });

  test('an id that is not a line of the order → not_found on lines[i][order_line_id]', () => {
    expect(() => orderLinePicker(lines)('line_zzz', 2)).toThrow(
      expect.objectContaining({ code: 'not_found', param: 'lines[2][order_line_id]' }),
    );
  });

  test('the same line twice → parameter_invalid on the second', () => {
    const pick = orderLinePicker(lines);
    pick('line_a', 0);
    expect(() => pick('line_a', 1)).toThrow(
      expect.objectContaining({ code: 'parameter_invalid', param: 'lines[1][order_line_id]' }),
    );
  });
});
