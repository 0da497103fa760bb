import { describe, expect, expectTypeOf, test } from 'vitest';
import type { Product } from '../catalog/schemas';
import type { Customer } from '../customers/schemas';
import type { Engine } from '../engine';
import type { Inventory } from '../inventory/schemas';
import type { Order } from '../orders/schemas';
import type { Payment } from '../payments/schemas';
import type { EventRecord, Scope } from '../ports/storage';
import type { Refund } from '../refunds/schemas';
import type { Work } from '../shared/unit-of-work';
import { createEventBus } from './event-bus';
import {
  type CheckoutPaymentFailed,
  type EngineEvent,
  type EngineEvents,
  EVENT_DATA_SCHEMAS,
  type EventDataMap,
  type PasswordResetRequested,
} from './event-data';
import { EVENT_TYPES } from './schemas';

// The type-level checks below are compiled by `tsc -p packages/core` (`pnpm typecheck`): an
// `expectTypeOf` that does not hold, or a `@ts-expect-error` line that compiles, fails it.

describe('EventDataMap', () => {
  test('every event type has a data schema, and nothing else does', () => {
    expect(Object.keys(EVENT_DATA_SCHEMAS).sort()).toEqual([...EVENT_TYPES].sort());
  });

  test('maps each event type to its wire resource', () => {
    expectTypeOf<EventDataMap['order.created']>().toEqualTypeOf<Order>();
    expectTypeOf<EventDataMap['order.cancelled']>().toEqualTypeOf<Order>();
    expectTypeOf<EventDataMap['product.deleted']>().toEqualTypeOf<Product>();
    expectTypeOf<EventDataMap['payment.completed']>().toEqualTypeOf<Payment>();
    expectTypeOf<EventDataMap['payment.failed']>().toEqualTypeOf<Payment | CheckoutPaymentFailed>();
    expectTypeOf<EventDataMap['payment.refunded']>().toEqualTypeOf<Refund>();
    expectTypeOf<EventDataMap['inventory.low']>().toEqualTypeOf<Inventory>();
    expectTypeOf<EventDataMap['customer.updated']>().toEqualTypeOf<Customer>();
    expectTypeOf<EventDataMap['customer.password_reset_requested']>().toEqualTypeOf<{
      customer_id: string;
      email: string;
      token: string;
      expires_at: string;
    }>();
  });

  test('a declined checkout payment has no order but a cart', () => {
    const base = {
      id: 'pay_1',
      provider: 'stripe',
      provider_id: 'pi_1',
      amount: { amount: 500, currency: 'EUR' },
      status: 'failed',
      note: null,
      metadata: {},
      created_at: '2024-05-01T12:00:00.000Z',
    };
    const failed = EVENT_DATA_SCHEMAS['payment.failed'];
    expect(failed.safeParse({ ...base, order_id: null, cart_id: 'cart_1' }).success).toBe(true);
    expect(failed.safeParse({ ...base, order_id: 'ord_1' }).success).toBe(true);
    expect(failed.safeParse({ ...base, order_id: null }).success).toBe(false);
  });
});

describe('engine.events.on is typed by the event type', () => {
  test('the engine exposes the typed subscription', () => {
    expectTypeOf<Engine['events']>().toEqualTypeOf<EngineEvents>();
  });

  test('a listener of one type gets that type’s data; a wrong field or event name does not compile', () => {
    const { on } = createEventBus();
    const totals: number[] = [];
    const off = on('order.created', (e) => {
      expectTypeOf(e).toEqualTypeOf<EngineEvent<'order.created'>>();
      expectTypeOf(e.type).toEqualTypeOf<'order.created'>();
      expectTypeOf(e.data).toEqualTypeOf<Order>();
      totals.push(e.data.total.amount);
      // @ts-expect-error an Order has no such field
      e.data.nonexistent;
    });
    on('customer.password_reset_requested', (e) => {
      expectTypeOf(e.data).toEqualTypeOf<PasswordResetRequested>();
    });
    // @ts-expect-error not an event type
    on('order.creatd', () => undefined);
    // @ts-expect-error the listener of order.created does not take a product event
    on('order.created', (_e: EngineEvent<'product.created'>) => undefined);
    off();
    expect(totals).toEqual([]);
  });

  test("'*' gets the union, discriminated by type", () => {
    const { on } = createEventBus();
    on('*', (e) => {
      expectTypeOf(e).toEqualTypeOf<EngineEvent>();
      if (e.type === 'order.created') expectTypeOf(e.data).toEqualTypeOf<Order>();
      if (e.type === 'inventory.low') expectTypeOf(e.data).toEqualTypeOf<Inventory>();
    });
    expectTypeOf<EngineEvent>().toEqualTypeOf<
      { [K in keyof EventDataMap]: EngineEvent<K> }[keyof EventDataMap]
    >();
  });

  test('Work.emit takes the event type’s data and refuses another', () => {
    const check = (work: Work, scope: Scope, order: Order, product: Product) => {
      work.emit(scope, 'order.created', order);
      work.emit(scope, 'product.deleted', product);
      // @ts-expect-error order.created carries an Order, not a Product
      work.emit(scope, 'order.created', product);
      // @ts-expect-error not an event type
      work.emit(scope, 'order.creatd', order);
      // @ts-expect-error the reset event's data is { customer_id, email, token, expires_at }
      work.emit(scope, 'customer.password_reset_requested', { customer_id: 'cus_1', email: 'a@b.co' });
    };
    expect(check).toBeTypeOf('function');
  });
});

function record(type: string, data: Record<string, unknown>, id = 'evt_1'): EventRecord {
  return {
    id,
    store_id: 'store_1',
    mode: 'test',
    type,
    data: data as EventRecord['data'],
    created_at: Date.UTC(2024, 4, 1, 12),
  };
}

describe('createEventBus: listeners receive the payloads of their type', () => {
  test('a typed listener hears only its type, with the payload; * hears all; off stops it', () => {
    const bus = createEventBus();
    const created: EngineEvent<'order.created'>[] = [];
    const all: EngineEvent[] = [];
    const off = bus.on('order.created', (e) => created.push(e));
    bus.on('*', (e) => all.push(e));

    bus.sink.publish([
      record('order.created', { id: 'ord_1', total: { amount: 5500, currency: 'EUR' } }, 'evt_1'),
      record('product.created', { id: 'prod_1' }, 'evt_2'),
    ]);
    expect(created).toEqual([
      {
        id: 'evt_1',
        type: 'order.created',
        created_at: '2024-05-01T12:00:00.000Z',
        data: { id: 'ord_1', total: { amount: 5500, currency: 'EUR' } },
        store_id: 'store_1',
        mode: 'test',
      },
    ]);
    expect(created[0]?.data.total.amount).toBe(5500);
    expect(all.map((e) => e.type)).toEqual(['order.created', 'product.created']);

    off();
    bus.sink.publish([record('order.created', { id: 'ord_2' }, 'evt_3')]);
    expect(created).toHaveLength(1);
    expect(all).toHaveLength(3);
  });

  test('each listener gets its own event object; a throwing listener does not stop the others', () => {
    const errors: unknown[] = [];
    const bus = createEventBus((error) => errors.push(error));
    const seen: EngineEvent[] = [];
    bus.on('*', (e) => {
      seen.push(e);
      throw new Error('boom');
    });
    bus.on('customer.created', (e) => seen.push(e));
    bus.sink.publish([record('customer.created', { id: 'cus_1' })]);
    expect(seen).toHaveLength(2);
    expect(seen[0]).not.toBe(seen[1]);
    expect(seen[0]).toEqual(seen[1]);
    expect(errors).toHaveLength(1);
  });
});
