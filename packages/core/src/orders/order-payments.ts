import { paymentMachine } from '../payments/payment-transitions';
import type { AdminPaymentCreate } from '../payments/schemas';
import { EXCHANGE_CREDIT_PROVIDER } from '../payments/vocabulary';
import { paymentToWire } from '../payments/wire';
import type { OrderAggregate, PaymentRecord, Scope } from '../ports/storage';
import type { ServiceContext } from '../shared/context';
import { CommerceError } from '../shared/errors';
import { amountInStoreCurrency } from '../shared/money-input';
import { assertTransition } from '../shared/state-machine';
import { write } from '../shared/unit-of-work';
import { requireOrder } from './order-loading';
import { saveOrderProgress } from './order-progress';

/** Drafts are not finalised and cancelled orders are closed: neither takes money. */
function assertAcceptsPayment(order: OrderAggregate): void {
  if (order.status === 'draft' || order.status === 'cancelled') {
    throw new CommerceError(
      'invalid_state_transition',
      `Cannot record a payment on a ${order.status} order`,
      {
        data: { status: order.status },
      },
    );
  }
}

/**
 * Payments the admin records or completes (docs/contract.md#payments). After each, the order's
 * `paid_total` and `payment_status` follow and payment in full moves it `pending → confirmed`
 * (and on, when it was fulfilled already), with `order.confirmed` / `order.completed`.
 */
export function createOrderPayments(ctx: ServiceContext) {
  return {
    /**
     * `POST /v1/admin/orders/{id}/payments`: records a `completed` payment taken outside the
     * engine (`provider` is a free label: `cash`, `bank_transfer`). The amount is in the order's
     * currency (422 `currency_mismatch`). Refused on drafts and cancelled orders (409
     * `invalid_state_transition`). Decision: an amount beyond what is owed is accepted (the order
     * is `paid`; the surplus can be refunded). Events `payment.created`, `payment.completed`.
     */
    async create(scope: Scope, orderId: string, input: AdminPaymentCreate) {
      return write(ctx, scope, async (work) => {
        const { tx, now } = work;
        const order = await requireOrder(tx, scope, orderId, { forUpdate: true });
        assertAcceptsPayment(order);
        if (input.provider === EXCHANGE_CREDIT_PROVIDER) {
          // Reserved for the credit a return's exchange carries (decisions §18): not revenue (§23).
          throw new CommerceError(
            'parameter_invalid',
            `provider '${EXCHANGE_CREDIT_PROVIDER}' is reserved for exchange credit`,
            {
              param: 'provider',
            },
          );
        }
        const amount = amountInStoreCurrency(input.amount, order.currency, 'amount') ?? 0;
        const payment: PaymentRecord = {
          id: ctx.ids.next('pay'),
          store_id: scope.store_id,
          mode: scope.mode,
          order_id: order.id,
          provider: input.provider,
          provider_id: null,
          amount,
          currency: order.currency,
          status: 'completed',
          idempotency_key: null,
          cart_id: null,
          client_secret: null,
          failure_reason: null,
          note: input.note ?? null,
          metadata: input.metadata,
          checkout_snapshot: null,
          created_at: now,
          updated_at: now,
        };
        await tx.orders.insertPayment(payment);
        const wire = paymentToWire(payment);
        work.emit(scope, 'payment.created', wire);
        work.emit(scope, 'payment.completed', wire);
        await saveOrderProgress(work, scope, order, { ...order, payments: [...order.payments, payment] });
        return wire;
      });
    },

    /**
     * `POST /v1/admin/payments/{id}/complete`: marks a pending payment (a manual checkout's)
     * completed. Any other status → 409 `invalid_state_transition`. Event `payment.completed`.
     */
    async complete(scope: Scope, paymentId: string) {
      return write(ctx, scope, async (work) => {
        const { tx, now } = work;
        const found = await tx.orders.getPayment(scope, paymentId);
        if (!found || found.order_id === null)
          throw new CommerceError('not_found', `No such payment: '${paymentId}'`);
        const order = await requireOrder(tx, scope, found.order_id, { forUpdate: true });
        const current = order.payments.find((p) => p.id === paymentId) ?? found;
        assertTransition(paymentMachine, current.status, 'completed');
        const updated = await tx.orders.updatePayment(
          scope,
          paymentId,
          { status: 'completed', updated_at: now },
          { expect_status: 'pending' },
        );
        if (!updated) throw new CommerceError('invalid_state_transition', 'The payment is no longer pending');
        const wire = paymentToWire(updated);
        work.emit(scope, 'payment.completed', wire);
        await saveOrderProgress(work, scope, order, {
          ...order,
          payments: order.payments.map((p) => (p.id === paymentId ? updated : p)),
        });
        return wire;
      });
    },
  };
}
