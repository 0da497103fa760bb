import { describe, expect, test } from 'vitest';
import {
  defaultTestEventType,
  eventsSinceAfterChange,
  receivesEvent,
  subscribedSince,
} from './subscriptions';

const webhook = (events: string[], events_since: Record<string, number> = {}, created_at = 10) => ({
  events,
  events_since,
  created_at,
});

describe('subscribedSince / receivesEvent (decisions §15)', () => {
  test('a listed type counts from created_at unless the map says later; an unlisted type is not received', () => {
    expect(subscribedSince(webhook(['a']), 'a')).toBe(10);
    expect(subscribedSince(webhook(['a', 'b'], { b: 20 }), 'b')).toBe(20);
    expect(subscribedSince(webhook(['a']), 'b')).toBeNull();
  });

  test('["*"]: every type from the switch, a type listed before keeps its earlier time', () => {
    const w = webhook(['*'], { '*': 30, a: 10 });
    expect(subscribedSince(w, 'a')).toBe(10);
    expect(subscribedSince(w, 'b')).toBe(30);
    expect(subscribedSince(webhook(['*']), 'b')).toBe(10);
  });

  test('an event of the same millisecond is received, an earlier one is not', () => {
    expect(receivesEvent(webhook(['a']), { type: 'a', created_at: 10 })).toBe(true);
    expect(receivesEvent(webhook(['a']), { type: 'a', created_at: 9 })).toBe(false);
    expect(receivesEvent(webhook(['a']), { type: 'b', created_at: 99 })).toBe(false);
  });
});

describe('eventsSinceAfterChange', () => {
  test('kept types keep their time, added ones count from now, removed ones are forgotten', () => {
    expect(eventsSinceAfterChange(webhook(['a', 'b']), ['a', 'c'], 50)).toEqual({ a: 10, c: 50 });
  });

  test('list → ["*"] keeps the listed types’ times; ["*"] → list keeps the time of the switch', () => {
    const star = eventsSinceAfterChange(webhook(['a']), ['*'], 50);
    expect(star).toEqual({ '*': 50, a: 10 });
    expect(eventsSinceAfterChange(webhook(['*'], star), ['a', 'b'], 70)).toEqual({ a: 10, b: 50 });
    expect(eventsSinceAfterChange(webhook(['*'], star), ['*'], 70)).toEqual(star);
  });
});

describe('defaultTestEventType (decisions §22: a test delivery without event_type)', () => {
  test("the webhook's first subscribed type; order.created for ['*']", () => {
    expect(defaultTestEventType(['payment.failed', 'order.created'])).toBe('payment.failed');
    expect(defaultTestEventType(['customer.password_reset_requested'])).toBe(
      'customer.password_reset_requested',
    );
    expect(defaultTestEventType(['*'])).toBe('order.created');
  });
});
