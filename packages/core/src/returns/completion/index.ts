/**
 * Completing a return (decisions §18 `complete`): the money, the stock and the exchange.
 *
 * The interface, for the returns `complete` operation (returns/**):
 *
 * ```ts
 * // inside ONE write(ctx, scope, async (work) => { … }):
 * const order = await requireOrder(work.tx, scope, ret.order_id, { forUpdate: true });
 * // … check the return is `received`, count the lines' returned_quantity on `order` …
 * const outcome = await applyReturnCompletion(ctx, work, scope, order, ret);
 * //   outcome.refund?.id            → the return's refund_id (null: nothing left to refund)
 * //   outcome.exchange?.order.id    → the return's exchange_order_id (exchange returns)
 * //   outcome.order                 → the original order as saved after the refund
 * //   outcome.in_flight             → a Stripe refund to settle after commit
 * // … mark the return completed, emit return.completed …
 * // after the transaction committed:
 * if (outcome.in_flight) await settleReturnRefund(ctx, scope, outcome.in_flight);
 * ```
 *
 * - `planReturnCompletion` (plan.ts, pure): restock/write-off by condition, the §13 value of the
 *   returned units, the refund capped at paid − refunded − pending − credit already issued, the
 *   exchange credit; `settleExchange` (credit vs the exchange order's total).
 * - `applyReturnCompletion` (apply.ts): the plan's effects in the caller's transaction.
 * - `placeExchangeOrder` (exchange.ts): the exchange order with its `exchange_credit` payment.
 *
 * Throws, rolling the caller's transaction back (the return stays `received`): 422
 * `insufficient_inventory` / `product_unavailable` for an exchange variant.
 */
export * from './apply';
export * from './exchange';
export * from './plan';
