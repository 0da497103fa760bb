import { describe, expect, test } from 'vitest';
import type { ZodType } from 'zod';
import { createSequentialIdGenerator } from '../../ports/random-id-generator';
import { ProductSchema } from '../../schemas/catalog';
import { CustomerSchema } from '../../schemas/customers';
import { EVENT_TYPES } from '../../schemas/events';
import { InventorySchema } from '../../schemas/inventory';
import { FulfillmentSchema, OrderSchema, PaymentSchema, RefundSchema } from '../../schemas/orders';
import { EVENT_RESOURCE, type EventResource, sampleEventData } from './sample-payloads';

const SCHEMAS: Record<EventResource, ZodType> = {
  product: ProductSchema,
  order: OrderSchema,
  payment: PaymentSchema,
  refund: RefundSchema,
  fulfillment: FulfillmentSchema,
  inventory: InventorySchema,
  customer: CustomerSchema,
};

const context = () => ({
  currency: 'EUR',
  now: Date.UTC(2024, 4, 1, 12),
  ids: createSequentialIdGenerator(),
});

describe('sampleEventData', () => {
  test.each(EVENT_TYPES.map((type) => [type, EVENT_RESOURCE[type]] as const))(
    '%s carries a complete %s wire object',
    (type, resource) => {
      const data = sampleEventData(type, context());
      const check = (SCHEMAS[resource] as ZodType).safeParse(data);
      expect(check.error?.message).toBeUndefined();
      expect(JSON.stringify(data)).not.toContain('"USD"');
    },
  );

  test('order events carry id, number, status and total in the store currency, with the state the event implies', () => {
    const statuses = (
      ['order.created', 'order.confirmed', 'order.completed', 'order.cancelled'] as const
    ).map((type) => {
      const order = sampleEventData(type, context()) as {
        id: string;
        number: number;
        status: string;
        total: unknown;
      };
      expect(order.id).toMatch(/^ord_/);
      expect(order.number).toBe(1001);
      expect(order.total).toEqual({ amount: 5500, currency: 'EUR' });
      return order.status;
    });
    expect(statuses).toEqual(['pending', 'confirmed', 'completed', 'cancelled']);
  });

  test('inventory.low is at or below safety stock and above 0; out_of_stock has nothing available', () => {
    const low = sampleEventData('inventory.low', context()) as { available: number; safety_stock: number };
    expect(low.available).toBeGreaterThan(0);
    expect(low.available).toBeLessThanOrEqual(low.safety_stock);
    expect((sampleEventData('inventory.out_of_stock', context()) as { available: number }).available).toBe(0);
  });

  test('fulfillment events move from pending to shipped to delivered', () => {
    const statuses = (['fulfillment.created', 'fulfillment.shipped', 'fulfillment.delivered'] as const).map(
      (type) => (sampleEventData(type, context()) as { status: string }).status,
    );
    expect(statuses).toEqual(['pending', 'shipped', 'delivered']);
  });
});
