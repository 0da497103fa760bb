import type { RefundRecord, Scope } from '../../ports/storage';
import { computeRefund } from '../../refunds';
import type { RefundCreate } from '../../schemas/orders';
import { amountInStoreCurrency } from '../carts/money-input';
import type { ServiceContext } from '../context';
import { emitInventoryCrossings } from '../inventory-events';
import { write } from '../unit-of-work';
import { refundToWire } from '../wire/orders';
import { requireOrder } from './order-loading';
import { deriveProgress, saveOrderProgress } from './order-progress';
import { restockMetadata } from './refund-ledger';
import { paymentsToMarkRefunded, refundSlices, refundWithProviders } from './refund-payments';

/**
 * Refunds (decisions §10, §13). `POST /v1/admin/orders/{id}/refunds` computes the refund with
 * `computeRefund` — the amount defaults to what was paid for the given lines' units (discounted
 * line total, plus tax when prices exclude it), never more than paid minus refunded (422
 * `refund_exceeds_refundable`) nor more units than a line has left (422
 * `quantity_exceeds_refundable`) — has the providers refund it, then records it and lets
 * everything follow in the same transaction: line `refunded_quantity` (and `restocked_quantity`),
 * inventory (with `restock: true`: unfulfilled units leave `reserved`, shipped ones return to
 * `on_hand`), the order's `refunded_total`, `payment_status` and `fulfillment_status`
 * (`returned` when every fulfilled unit came back), and payments fully covered become `refunded`.
 * Event `payment.refunded` with the Refund.
 *
 * Decision: refunds are allowed in any order status, cancelled included (money taken for a
 * cancelled order goes back this way); a draft has nothing paid, so any amount is refused as
 * exceeding the refundable 0.
 */
export function createOrderRefunds(ctx: ServiceContext) {
  return {
    async create(scope: Scope, orderId: string, input: RefundCreate) {
      return write(ctx, async (work) => {
        const { tx, now } = work;
        const order = await requireOrder(tx, scope, orderId, { forUpdate: true });
        const amount =
          input.amount !== undefined
            ? (amountInStoreCurrency(input.amount, order.currency, 'amount') ?? undefined)
            : undefined;
        const progress = deriveProgress(order);
        const outstanding = order.refunds
          .filter((r) => r.status !== 'failed')
          .reduce((sum, r) => sum + r.amount, 0);
        const computed = computeRefund({
          lines: order.lines,
          prices_include_tax: order.prices_include_tax,
          paid: progress.paid_total,
          refunded_total: outstanding,
          request: { lines: input.lines, amount, restock: input.restock },
          inventory_reserved: order.inventory_reserved,
        });

        const id = ctx.ids.next('ref');
        const { status, provider_refund_id } =
          computed.amount > 0
            ? await refundWithProviders(
                ctx,
                id,
                refundSlices(order.payments, outstanding, computed.amount),
                input.reason ?? null,
              )
            : { status: 'completed' as const, provider_refund_id: null };
        const refund: RefundRecord = {
          id,
          store_id: scope.store_id,
          mode: scope.mode,
          order_id: order.id,
          amount: computed.amount,
          currency: order.currency,
          reason: input.reason ?? null,
          restock: input.restock,
          status,
          lines: computed.lines,
          provider_refund_id,
          metadata: restockMetadata(computed.restock_movements),
          created_at: now,
          updated_at: now,
        };
        await tx.orders.insertRefund(refund);

        const units = new Map(computed.lines.map((l) => [l.order_line_id, l.quantity]));
        const lines = order.lines.map((line) => {
          const q = units.get(line.id);
          if (q === undefined) return line;
          return {
            ...line,
            refunded_quantity: line.refunded_quantity + q,
            restocked_quantity: line.restocked_quantity + (input.restock ? q : 0),
          };
        });
        if (units.size > 0) {
          await tx.orders.updateLines(
            scope,
            order.id,
            lines
              .filter((l) => units.has(l.id))
              .map((l) => ({
                id: l.id,
                refunded_quantity: l.refunded_quantity,
                restocked_quantity: l.restocked_quantity,
              })),
          );
        }

        const variantOf = new Map(order.lines.map((l) => [l.id, l.variant_id]));
        const restock = new Map<string, { variant_id: string; from_reserved: number; to_on_hand: number }>();
        for (const m of computed.restock_movements) {
          const variant_id = variantOf.get(m.order_line_id);
          if (variant_id === undefined || m.from_reserved + m.to_on_hand === 0) continue;
          const entry = restock.get(variant_id) ?? { variant_id, from_reserved: 0, to_on_hand: 0 };
          entry.from_reserved += m.from_reserved;
          entry.to_on_hand += m.to_on_hand;
          restock.set(variant_id, entry);
        }
        const changes = restock.size > 0 ? await tx.inventory.restock(scope, [...restock.values()], now) : [];

        const refunds = [...order.refunds, refund];
        const completedRefunds = refunds
          .filter((r) => r.status === 'completed')
          .reduce((sum, r) => sum + r.amount, 0);
        const marked = new Set(paymentsToMarkRefunded(order.payments, completedRefunds).map((p) => p.id));
        const payments = await Promise.all(
          order.payments.map(async (p) => {
            if (!marked.has(p.id)) return p;
            const updated = await tx.orders.updatePayment(
              scope,
              p.id,
              { status: 'refunded', updated_at: now },
              { expect_status: 'completed' },
            );
            return updated ?? p;
          }),
        );

        const wire = refundToWire(refund);
        work.emit(scope, 'payment.refunded', wire);
        await saveOrderProgress(work, scope, order, { ...order, lines, refunds, payments });
        emitInventoryCrossings(work, scope, changes);
        return wire;
      });
    },
  };
}
