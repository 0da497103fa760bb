/** What a test payment method does when a PaymentIntent is confirmed with it. */
export type TestCardBehaviour =
  | { outcome: 'succeed' }
  | { outcome: 'authenticate' }
  | { outcome: 'decline'; code: string; decline_code: string; message: string; param?: string };

/** A card the fake knows, as Stripe's test `pm_card_*` payment methods describe it. */
export interface TestPaymentMethod {
  id: string;
  brand: string;
  last4: string;
  behaviour: TestCardBehaviour;
  /**
   * How refunds of its charges come out: `succeeded` at once (default), or `pending` until the
   * test settles them with `FakeStripe.settleRefund` (Stripe's `pm_card_pendingRefund`, card
   * 4000 0000 0000 7726, whose refunds start pending; at Stripe they then succeed by themselves).
   */
  refunds?: 'pending';
}

const DECLINED = 'Your card was declined.';

function decline(code: string, decline_code: string, message: string, param?: string): TestCardBehaviour {
  return param === undefined
    ? { outcome: 'decline', code, decline_code, message }
    : { outcome: 'decline', code, decline_code, message, param };
}

/**
 * The test payment methods the fake accepts, after Stripe's documented test cards
 * (docs.stripe.com/testing): successes by brand, declines with their `code` / `decline_code`
 * and customer-facing message, cards that always require 3-D Secure authentication, and a card
 * whose refunds stay `pending` (`pm_card_pendingRefund`, settled by `FakeStripe.settleRefund`).
 * Any other id is unknown to the fake (400 `resource_missing` on `payment_method`).
 */
export const TEST_PAYMENT_METHODS: ReadonlyMap<string, TestPaymentMethod> = new Map(
  (
    [
      ['pm_card_visa', 'visa', '4242', { outcome: 'succeed' }],
      ['pm_card_visa_debit', 'visa', '5556', { outcome: 'succeed' }],
      ['pm_card_mastercard', 'mastercard', '4444', { outcome: 'succeed' }],
      ['pm_card_amex', 'amex', '8431', { outcome: 'succeed' }],
      ['pm_card_chargeDeclined', 'visa', '0002', decline('card_declined', 'generic_decline', DECLINED)],
      [
        'pm_card_chargeDeclinedInsufficientFunds',
        'visa',
        '9995',
        decline('card_declined', 'insufficient_funds', 'Your card has insufficient funds.'),
      ],
      ['pm_card_chargeDeclinedLostCard', 'visa', '9987', decline('card_declined', 'lost_card', DECLINED)],
      ['pm_card_chargeDeclinedStolenCard', 'visa', '9979', decline('card_declined', 'stolen_card', DECLINED)],
      ['pm_card_chargeDeclinedFraudulent', 'visa', '0019', decline('card_declined', 'fraudulent', DECLINED)],
      [
        'pm_card_chargeDeclinedExpiredCard',
        'visa',
        '0069',
        decline('expired_card', 'expired_card', 'Your card has expired.', 'exp_month'),
      ],
      [
        'pm_card_chargeDeclinedIncorrectCvc',
        'visa',
        '0127',
        decline('incorrect_cvc', 'incorrect_cvc', "Your card's security code is incorrect.", 'cvc'),
      ],
      [
        'pm_card_chargeDeclinedProcessingError',
        'visa',
        '0119',
        decline(
          'processing_error',
          'processing_error',
          'An error occurred while processing your card. Try again in a little bit.',
        ),
      ],
      ['pm_card_authenticationRequired', 'visa', '3184', { outcome: 'authenticate' }],
      ['pm_card_threeDSecure2Required', 'visa', '3220', { outcome: 'authenticate' }],
    ] as const satisfies ReadonlyArray<readonly [string, string, string, TestCardBehaviour]>
  )
    .map(([id, brand, last4, behaviour]): [string, TestPaymentMethod] => [
      id,
      { id, brand, last4, behaviour },
    ])
    .concat([
      [
        'pm_card_pendingRefund',
        {
          id: 'pm_card_pendingRefund',
          brand: 'visa',
          last4: '7726',
          behaviour: { outcome: 'succeed' },
          refunds: 'pending',
        },
      ],
    ]),
);
