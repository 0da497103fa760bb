import { describe, expect, it } from 'vitest';
import { CommerceError } from '../shared/errors';
import {
  assertOrderAction,
  assertOrderFulfillable,
  checkOrderAction,
  ORDER_ADMIN_ACTIONS,
  type OrderAdminAction,
  orderAdminAction,
} from './order-actions';
import { orderMachine } from './order-transitions';
import type { OrderStatus } from './vocabulary';

describe('ORDER_ADMIN_ACTIONS (decisions §13)', () => {
  it('lists the five actions with the states each is allowed from', () => {
    const table = Object.fromEntries(ORDER_ADMIN_ACTIONS.map((a) => [a.action, [a.to, [...a.from]]]));
    expect(table).toEqual({
      finalize: ['pending', ['draft']],
      confirm: ['confirmed', ['pending']],
      process: ['processing', ['confirmed']],
      complete: ['completed', ['processing']],
      cancel: ['cancelled', ['draft', 'pending', 'confirmed', 'processing']],
    });
    expect(orderAdminAction('cancel').conditional_from).toEqual({
      processing: 'only while nothing has shipped',
    });
  });

  it('names the request of each action', () => {
    expect(orderAdminAction('confirm').request).toBe('POST /v1/admin/orders/{id}/confirm');
    expect(orderAdminAction('finalize').request).toMatch(/^PATCH /);
  });

  it('every action × state agrees with the data (409 outside `from`)', () => {
    for (const spec of ORDER_ADMIN_ACTIONS) {
      for (const status of orderMachine.states) {
        const allowed = spec.from.includes(status);
        expect(checkOrderAction(spec.action, status, { has_shipped_units: false }).ok).toBe(allowed);
        if (allowed) {
          expect(assertOrderAction(spec.action, status, { has_shipped_units: false })).toBe(spec.to);
        } else {
          expect(() => assertOrderAction(spec.action, status, { has_shipped_units: false })).toThrow(
            CommerceError,
          );
        }
      }
    }
  });

  it('cancel from processing after shipping is refused', () => {
    expect(checkOrderAction('cancel', 'processing', { has_shipped_units: true }).ok).toBe(false);
  });

  it('an unknown action is a programming error (RangeError)', () => {
    expect(() => orderAdminAction('archive' as OrderAdminAction)).toThrow(RangeError);
  });
});

describe('assertOrderFulfillable', () => {
  it.each(['pending', 'confirmed', 'processing'] as const)('%s may be fulfilled', (status) => {
    expect(() => assertOrderFulfillable(status)).not.toThrow();
  });

  it.each(['draft', 'completed', 'cancelled'] as const)(
    '%s may not: 409 invalid_state_transition',
    (status) => {
      try {
        assertOrderFulfillable(status as OrderStatus);
        expect.unreachable();
      } catch (error) {
        expect((error as CommerceError).code).toBe('invalid_state_transition');
        expect((error as CommerceError).data).toEqual({ status });
      }
    },
  );
});
