import { CommerceError } from '../shared/errors';

/**
 * Resolves the `lines[i][order_line_id]` of a fulfillment or refund request against an order's
 * lines, in request order: an id that is not a line of this order → 404 `not_found` (docs/contract.md#errors:
 * unknown id, or one of another order); the same line twice → 400 `parameter_invalid`. Both carry
 * the param `lines[i][order_line_id]`.
 *
 * @example const pick = orderLinePicker(order.lines); const line = pick('line_1', 0);
 */
export function orderLinePicker<L extends { id: string }>(
  lines: readonly L[],
): (id: string, index: number) => L {
  const byId = new Map(lines.map((line) => [line.id, line]));
  const seen = new Set<string>();
  return (id, index) => {
    const line = byId.get(id);
    if (!line) {
      throw new CommerceError('not_found', `No such order line: '${id}'`, {
        param: `lines[${index}][order_line_id]`,
      });
    }
    if (seen.has(line.id)) {
      throw new CommerceError('parameter_invalid', `Order line '${line.id}' appears more than once`, {
        param: `lines[${index}][order_line_id]`,
      });
    }
    seen.add(line.id);
    return line;
  };
}
