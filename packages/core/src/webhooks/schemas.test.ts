import { describe, expect, test } from 'vitest';
import {
  EVENT_TYPES,
  RETURN_EVENT_TYPES,
  SECRET_EVENT_TYPES,
  SPEC_EVENT_TYPES,
  WEBHOOK_EVENT_TYPES,
} from '../events/schemas';
import { parseInput } from '../shared/schemas/parse';
import { expectRejected } from '../shared/schemas/test-helpers';
import { WebhookCreateSchema, WebhookTestSchema, WebhookUpdateSchema } from './schemas';

describe('event types (spec "Events", decisions §14)', () => {
  test('16 spec types plus payment.created, customer.updated and the secret customer.password_reset_requested and member.invited', () => {
    expect(SPEC_EVENT_TYPES).toHaveLength(16);
    // + the 6 category/collection events (decisions §17), the 6 return events (§18) and the
    // secret member.invited (§23).
    expect(EVENT_TYPES).toHaveLength(19 + 6 + RETURN_EVENT_TYPES.length + 1);
    expect(SECRET_EVENT_TYPES).toEqual(['customer.password_reset_requested', 'member.invited']);
    expect(EVENT_TYPES).toEqual(expect.arrayContaining([...SECRET_EVENT_TYPES]));
    // decisions §18: a return entering each of its states.
    expect(RETURN_EVENT_TYPES).toEqual([
      'return.requested',
      'return.approved',
      'return.rejected',
      'return.received',
      'return.completed',
      'return.cancelled',
    ]);
    expect(EVENT_TYPES).toEqual(expect.arrayContaining([...RETURN_EVENT_TYPES]));
    expect(EVENT_TYPES).toEqual(
      expect.arrayContaining(['payment.created', 'customer.updated', 'inventory.out_of_stock']),
    );
    expect(WEBHOOK_EVENT_TYPES).toEqual([...EVENT_TYPES, '*']);
  });
});

describe('WebhookCreate', () => {
  test('url and events; is_active defaults to true, metadata to {}', () => {
    expect(
      parseInput(WebhookCreateSchema, { url: 'https://hooks.example.com/x', events: ['order.created'] }),
    ).toEqual({
      url: 'https://hooks.example.com/x',
      events: ['order.created'],
      is_active: true,
      metadata: {},
    });
  });

  test('is_active is accepted (decisions §22): a boolean, nothing else', () => {
    const input = { url: 'https://a.io', events: ['*'], is_active: false };
    expect(parseInput(WebhookCreateSchema, input).is_active).toBe(false);
    expectRejected(WebhookCreateSchema, { ...input, is_active: 'false' }, 'parameter_invalid', 'is_active');
    expectRejected(WebhookCreateSchema, { ...input, is_active: null }, 'parameter_invalid', 'is_active');
  });

  test('every event type is accepted; repeats are kept once', () => {
    expect(parseInput(WebhookCreateSchema, { url: 'http://a.io', events: [...EVENT_TYPES] }).events).toEqual([
      ...EVENT_TYPES,
    ]);
    expect(
      parseInput(WebhookCreateSchema, { url: 'http://a.io', events: ['order.created', 'order.created'] })
        .events,
    ).toEqual(['order.created']);
  });

  test("['*'] alone is accepted and kept as ['*']", () => {
    expect(parseInput(WebhookCreateSchema, { url: 'https://a.io', events: ['*'] }).events).toEqual(['*']);
  });

  test("'*' mixed with types is refused", () => {
    expectRejected(
      WebhookCreateSchema,
      { url: 'https://a.io', events: ['order.created', '*'] },
      'parameter_invalid',
      'events[1]',
    );
  });

  test('unknown event types and empty lists are refused', () => {
    const error = expectRejected(
      WebhookCreateSchema,
      { url: 'https://a.io', events: ['order.created', 'order.shipped'] },
      'parameter_invalid',
      'events[1]',
    );
    expect(error.message).toBe("events[1] must be a known event type, or '*' for all");
    expectRejected(WebhookCreateSchema, { url: 'https://a.io', events: [] }, 'parameter_invalid', 'events');
    expectRejected(WebhookCreateSchema, { url: 'https://a.io' }, 'parameter_missing', 'events');
  });

  test('url must be an absolute http(s) URL → parameter_invalid', () => {
    for (const url of ['ftp://a.io/x', 'a.io/hook', '/hook', 'https://', 'not a url']) {
      const error = expectRejected(WebhookCreateSchema, { url, events: ['*'] }, 'parameter_invalid', 'url');
      expect(error.message).toBe('url must be an absolute http(s) URL');
    }
    expectRejected(WebhookCreateSchema, { events: ['*'] }, 'parameter_missing', 'url');
  });

  test('secret cannot be chosen by the client', () => {
    expectRejected(
      WebhookCreateSchema,
      { url: 'https://a.io', events: ['*'], secret: 'whsec_x' },
      'parameter_unknown',
      'secret',
    );
  });
});

describe('WebhookUpdate', () => {
  test('url, events, is_active, metadata — all optional', () => {
    expect(parseInput(WebhookUpdateSchema, { is_active: true })).toEqual({ is_active: true });
    expectRejected(WebhookUpdateSchema, { url: 'mailto:a@b.co' }, 'parameter_invalid', 'url');
    expectRejected(WebhookUpdateSchema, { events: ['nope'] }, 'parameter_invalid', 'events[0]');
    expectRejected(
      WebhookUpdateSchema,
      { consecutive_failures: 0 },
      'parameter_unknown',
      'consecutive_failures',
    );
  });
});

describe('WebhookTest', () => {
  test('event_type optional (decisions §22: the webhook’s first type then), a known type when given (not *)', () => {
    expect(parseInput(WebhookTestSchema, { event_type: 'order.created' })).toEqual({
      event_type: 'order.created',
    });
    expect(parseInput(WebhookTestSchema, {})).toEqual({});
    expectRejected(WebhookTestSchema, { event_type: null }, 'parameter_invalid', 'event_type');
    expectRejected(WebhookTestSchema, { type: 'order.created' }, 'parameter_unknown', 'type');
    expectRejected(WebhookTestSchema, { event_type: '*' }, 'parameter_invalid', 'event_type');
    expectRejected(WebhookTestSchema, { event_type: 'order.exploded' }, 'parameter_invalid', 'event_type');
  });
});
