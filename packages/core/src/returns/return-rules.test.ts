import { describe, expect, it } from 'vitest';
import { orderLine } from '../orders/order-fixtures';
import type { FulfillmentRecord, OrderAggregate } from '../ports/storage';
import { CommerceError } from '../shared/errors';
import {
  assertLinesReturnable,
  assertOrderReturnable,
  latestShipmentByLine,
  withinReturnWindow,
} from './return-rules';

const DAY = 86_400_000;

const fulfillment = (
  id: string,
  status: FulfillmentRecord['status'],
  shipped_at: number | null,
  lines: FulfillmentRecord['lines'],
): FulfillmentRecord =>
  ({
    id,
    store_id: 'store_1',
    mode: 'test',
    order_id: 'ord_1',
    status,
    tracking_number: null,
    tracking_url: null,
    carrier: null,
    lines,
    metadata: {},
    created_at: 0,
    updated_at: 0,
    shipped_at,
    delivered_at: null,
  }) as FulfillmentRecord;

function order(
  overrides: Partial<OrderAggregate> = {},
): Pick<OrderAggregate, 'lines' | 'refunds' | 'fulfillments'> {
  return {
    lines: [
      orderLine({ id: 'line_1', quantity: 3, fulfilled_quantity: 3, shipped_quantity: 3 }),
      orderLine({ id: 'line_2', quantity: 1, fulfilled_quantity: 1, shipped_quantity: 1 }),
    ],
    refunds: [],
    fulfillments: [
      fulfillment('ful_1', 'shipped', 10 * DAY, [{ order_line_id: 'line_1', quantity: 3 }]),
      fulfillment('ful_2', 'delivered', 2 * DAY, [{ order_line_id: 'line_2', quantity: 1 }]),
    ],
    ...overrides,
  };
}

function codeOf(fn: () => void): { code: string; param?: string | undefined; message: string } | null {
  try {
    fn();
    return null;
  } catch (error) {
    if (!CommerceError.is(error)) throw error;
    return { code: error.code, param: error.param, message: error.message };
  }
}

describe('return eligibility and lines (decisions §18)', () => {
  it('draft and cancelled orders cannot be returned (409); any other status can', () => {
    for (const status of ['draft', 'cancelled'] as const) {
      expect(codeOf(() => assertOrderReturnable({ id: 'ord_1', status }))?.code).toBe(
        'invalid_state_transition',
      );
    }
    for (const status of ['pending', 'confirmed', 'processing', 'completed'] as const) {
      expect(codeOf(() => assertOrderReturnable({ id: 'ord_1', status }))).toBeNull();
    }
  });

  it('an unknown order line → 404 on lines[i][order_line_id]', () => {
    const fault = codeOf(() =>
      assertLinesReturnable(
        order(),
        [
          { order_line_id: 'line_1', quantity: 1 },
          { order_line_id: 'line_x', quantity: 1 },
        ],
        null,
      ),
    );
    expect(fault).toMatchObject({ code: 'not_found', param: 'lines[1][order_line_id]' });
  });

  it('more than returnable → 422 quantity_exceeds_returnable on lines[i][quantity], naming the count', () => {
    const held = order({
      lines: [
        orderLine({
          id: 'line_1',
          quantity: 3,
          fulfilled_quantity: 3,
          shipped_quantity: 3,
          returning_quantity: 1,
        }),
      ],
    });
    const fault = codeOf(() => assertLinesReturnable(held, [{ order_line_id: 'line_1', quantity: 3 }], null));
    expect(fault).toMatchObject({ code: 'quantity_exceeds_returnable', param: 'lines[0][quantity]' });
    expect(fault?.message).toContain('2 returnable units');
    expect(
      codeOf(() => assertLinesReturnable(held, [{ order_line_id: 'line_1', quantity: 2 }], null)),
    ).toBeNull();
  });

  it('unshipped units are not returnable: a pending fulfillment does not count', () => {
    const pending = order({
      lines: [orderLine({ id: 'line_1', quantity: 2, fulfilled_quantity: 2, shipped_quantity: 0 })],
      fulfillments: [fulfillment('ful_1', 'pending', null, [{ order_line_id: 'line_1', quantity: 2 }])],
    });
    const fault = codeOf(() =>
      assertLinesReturnable(pending, [{ order_line_id: 'line_1', quantity: 1 }], null),
    );
    expect(fault).toMatchObject({ code: 'quantity_exceeds_returnable' });
    expect(fault?.message).toContain('0 returnable units');
  });

  it('the latest shipment of a line is its newest shipped or delivered fulfillment', () => {
    const o = order({
      fulfillments: [
        fulfillment('ful_1', 'shipped', 1 * DAY, [{ order_line_id: 'line_1', quantity: 1 }]),
        fulfillment('ful_2', 'delivered', 5 * DAY, [{ order_line_id: 'line_1', quantity: 1 }]),
        fulfillment('ful_3', 'cancelled', 9 * DAY, [{ order_line_id: 'line_1', quantity: 1 }]),
        fulfillment('ful_4', 'pending', null, [{ order_line_id: 'line_2', quantity: 1 }]),
      ],
    });
    const latest = latestShipmentByLine(o);
    expect(latest.get('line_1')).toBe(5 * DAY);
    expect(latest.has('line_2')).toBe(false);
  });

  it('the window: within `days` × 24 h of the latest shipment; storefront only', () => {
    expect(withinReturnWindow(0, 14, 14 * DAY)).toBe(true);
    expect(withinReturnWindow(0, 14, 14 * DAY + 1)).toBe(false);
    expect(withinReturnWindow(0, 0, 0)).toBe(true);
    // line_1 shipped on day 10; on day 25 a 14-day window has closed, a 15-day one has not.
    const late = codeOf(() =>
      assertLinesReturnable(order(), [{ order_line_id: 'line_1', quantity: 1 }], { days: 14, now: 25 * DAY }),
    );
    expect(late).toMatchObject({ code: 'return_window_expired', param: 'lines[0][order_line_id]' });
    expect(
      codeOf(() =>
        assertLinesReturnable(order(), [{ order_line_id: 'line_1', quantity: 1 }], {
          days: 15,
          now: 25 * DAY,
        }),
      ),
    ).toBeNull();
    // No window (null), or the admin (no window given): never limited.
    expect(
      codeOf(() =>
        assertLinesReturnable(order(), [{ order_line_id: 'line_1', quantity: 1 }], {
          days: null,
          now: 900 * DAY,
        }),
      ),
    ).toBeNull();
    expect(
      codeOf(() => assertLinesReturnable(order(), [{ order_line_id: 'line_1', quantity: 1 }], null)),
    ).toBeNull();
  });
});
