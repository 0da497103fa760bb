import { describe, expect, expectTypeOf, test } from 'vitest';
import { EVENT_DATA_SCHEMAS, type PasswordResetRequested } from '../events/event-data';
import { EVENT_TYPES } from '../events/schemas';
import type { Order } from '../orders/schemas';
import { createSequentialIdGenerator } from '../ports/random-id-generator';
import { SAMPLE_RESET_TOKEN, sampleEventData } from './sample-payloads';

const context = () => ({
  currency: 'EUR',
  now: Date.UTC(2024, 4, 1, 12),
  ids: createSequentialIdGenerator(),
});

describe('sampleEventData', () => {
  test.each(EVENT_TYPES)('%s carries a complete data object of its type (EVENT_DATA_SCHEMAS)', (type) => {
    const data = sampleEventData(type, context());
    const check = EVENT_DATA_SCHEMAS[type].safeParse(data);
    expect(check.error?.message).toBeUndefined();
    expect(JSON.stringify(data)).not.toContain('"USD"');
  });

  test('a sample is typed by the event data map', () => {
    expectTypeOf(sampleEventData('order.created', context())).toEqualTypeOf<Order>();
    expectTypeOf(
      sampleEventData('customer.password_reset_requested', context()),
    ).toEqualTypeOf<PasswordResetRequested>();
  });

  test('order events carry id, number, status and total in the store currency, with the state the event implies', () => {
    const statuses = (
      ['order.created', 'order.confirmed', 'order.completed', 'order.cancelled'] as const
    ).map((type) => {
      const order = sampleEventData(type, context());
      expect(order.id).toMatch(/^ord_/);
      expect(order.number).toBe(1001);
      expect(order.total).toEqual({ amount: 5500, currency: 'EUR' });
      return order.status;
    });
    expect(statuses).toEqual(['pending', 'confirmed', 'completed', 'cancelled']);
  });

  test('inventory.low is at or below safety stock and above 0; out_of_stock has nothing available', () => {
    const low = sampleEventData('inventory.low', context());
    expect(low.available).toBeGreaterThan(0);
    expect(low.available).toBeLessThanOrEqual(low.safety_stock ?? 0);
    expect(sampleEventData('inventory.out_of_stock', context()).available).toBe(0);
  });

  test('fulfillment events move from pending to shipped to delivered', () => {
    const statuses = (['fulfillment.created', 'fulfillment.shipped', 'fulfillment.delivered'] as const).map(
      (type) => sampleEventData(type, context()).status,
    );
    expect(statuses).toEqual(['pending', 'shipped', 'delivered']);
  });

  test('customer.password_reset_requested carries a placeholder token valid for an hour', () => {
    const data = sampleEventData('customer.password_reset_requested', context());
    expect(data.customer_id).toMatch(/^cus_/);
    expect(data.token).toBe(SAMPLE_RESET_TOKEN);
    expect(data.token).toMatch(/^prt_/);
    expect(data.expires_at).toBe('2024-05-01T13:00:00.000Z');
  });
});
