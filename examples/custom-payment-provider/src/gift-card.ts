import type { PaymentProvider } from '@cartwright/core/providers';

/**
 * A payment provider of your own: gift cards. The card's code is the `payment_method_id`, the
 * money comes off its balance, a refund puts it back. Register it with
 * `createEngine({ payments: [giftCardProvider(balances)] })` and checkout takes
 * `payment_provider: 'gift_card'`.
 *
 * Like every provider, it answers a repeated idempotency key with its first answer, so a retried
 * checkout (or reconciliation after a crash) never charges a card twice.
 */
export function giftCardProvider(balances: Map<string, number>): PaymentProvider {
  const charges = new Map<string, { card: string; amount: number }>(); // by idempotency key
  return {
    name: 'gift_card', // lowercase letters, digits and _
    requiresPaymentMethod: true, // checkout without payment_method_id → 400 parameter_missing
    async createPayment({ amount, payment_method_id: card = '', idempotency_key }) {
      if (!charges.has(idempotency_key)) {
        const balance = balances.get(card) ?? 0;
        if (balance < amount) {
          return {
            status: 'failed',
            provider_id: null,
            failure_message: 'The gift card does not cover the total.',
          };
        }
        balances.set(card, balance - amount);
        charges.set(idempotency_key, { card, amount });
      }
      return { status: 'succeeded', provider_id: idempotency_key };
    },
    async refundPayment({ provider_id, amount, idempotency_key }) {
      const charge = charges.get(provider_id ?? '');
      if (charge === undefined)
        return { status: 'failed', provider_refund_id: null, failure_message: 'Unknown payment' };
      if (!charges.has(idempotency_key)) {
        balances.set(charge.card, (balances.get(charge.card) ?? 0) + amount);
        charges.set(idempotency_key, { card: charge.card, amount: -amount });
      }
      return { status: 'succeeded', provider_refund_id: idempotency_key };
    },
  };
}
