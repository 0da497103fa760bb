import type {
  CreatePaymentInput,
  LookupPaymentInput,
  PaymentProvider,
  PaymentResult,
  RefundPaymentInput,
  RefundResult,
} from '@cartwright/core/providers';

/** The name the fake card provider registers under unless told otherwise. */
export const FAKE_CARD_PROVIDER_NAME = 'fake_card';

/** What the fake does with a payment method: take the money, decline, or ask for 3-D Secure. */
export type FakePaymentOutcome = 'succeed' | 'decline' | 'requires_action';

/**
 * Outcomes of Stripe's documented test payment methods (`pm_card_*`), so tests read like tests
 * against Stripe's test mode. Any other id starting with `pm_card_chargeDeclined` declines too;
 * other unknown ids take the provider's `defaultOutcome`.
 */
export const TEST_CARD_OUTCOMES: Readonly<Record<string, FakePaymentOutcome>> = {
  pm_card_visa: 'succeed',
  pm_card_visa_debit: 'succeed',
  pm_card_mastercard: 'succeed',
  pm_card_amex: 'succeed',
  pm_card_chargeDeclined: 'decline',
  pm_card_chargeDeclinedInsufficientFunds: 'decline',
  pm_card_chargeDeclinedLostCard: 'decline',
  pm_card_chargeDeclinedStolenCard: 'decline',
  pm_card_chargeDeclinedFraudulent: 'decline',
  pm_card_chargeDeclinedExpiredCard: 'decline',
  pm_card_chargeDeclinedIncorrectCvc: 'decline',
  pm_card_chargeDeclinedProcessingError: 'decline',
  pm_card_authenticationRequired: 'requires_action',
  pm_card_threeDSecure2Required: 'requires_action',
};

export interface FakePaymentProviderOptions {
  /**
   * The name checkout's `payment_provider` selects. Default {@link FAKE_CARD_PROVIDER_NAME}
   * (`fake_card`): checkout accepts any provider the engine registers, so the fake keeps a name
   * of its own. Give `stripe` to have it stand in for Stripe exactly where a real Stripe provider
   * would be called (the same checkout bodies, over HTTP as in process).
   */
  name?: string;
  /** Outcomes by `payment_method_id`, merged over {@link TEST_CARD_OUTCOMES}. */
  outcomes?: Record<string, FakePaymentOutcome>;
  /** The outcome of a payment method the table does not know. Default `succeed`. */
  defaultOutcome?: FakePaymentOutcome;
}

/** A payment the fake was asked for (one per idempotency key). */
export interface FakeCharge {
  provider_id: string;
  amount: number;
  currency: string;
  payment_method_id: string | undefined;
  idempotency_key: string;
  status: 'succeeded' | 'requires_action' | 'failed';
  reference: CreatePaymentInput['reference'];
}

/** A refund the fake was asked for (one per idempotency key). */
export interface FakeRefund {
  provider_refund_id: string;
  provider_id: string | null;
  amount: number;
  currency: string;
  idempotency_key: string;
  reason: string | null;
}

/** The fake provider, with what it was asked to do, for assertions. */
export interface FakePaymentProvider extends PaymentProvider {
  /** Every distinct payment asked for, in order (a retried idempotency key adds nothing). */
  readonly charges: readonly FakeCharge[];
  readonly refunds: readonly FakeRefund[];
  /** Changes the outcome of one payment method from now on. */
  setOutcome(paymentMethodId: string, outcome: FakePaymentOutcome): void;
  /**
   * Finishes a payment that required action (the customer passed or failed 3-D Secure): its
   * charge becomes `succeeded` or `failed`, which `lookupPayment` reports from then on. Throws for
   * an unknown provider id or a charge that is not waiting for action.
   */
  resolveAction(providerId: string, outcome: 'succeed' | 'decline'): PaymentResult;
}

const DECLINE_MESSAGE = 'Your card was declined.';

/**
 * A payment provider that never leaves the process: outcomes are decided by the payment method
 * id (Stripe's test ids by default), provider ids are sequential (`pi_test_000001`,
 * `re_test_000001`), and every call is idempotent by its idempotency key, like Stripe's API —
 * the same key returns the first result and records nothing new.
 */
export function createFakePaymentProvider(options: FakePaymentProviderOptions = {}): FakePaymentProvider {
  const outcomes = new Map(Object.entries({ ...TEST_CARD_OUTCOMES, ...options.outcomes }));
  const defaultOutcome = options.defaultOutcome ?? 'succeed';
  const charges: FakeCharge[] = [];
  const refunds: FakeRefund[] = [];
  const chargesByKey = new Map<string, FakeCharge>();
  const refundsByKey = new Map<string, FakeRefund>();

  function outcomeOf(paymentMethodId: string | undefined): FakePaymentOutcome {
    if (paymentMethodId === undefined) return defaultOutcome;
    const known = outcomes.get(paymentMethodId);
    if (known !== undefined) return known;
    return paymentMethodId.startsWith('pm_card_chargeDeclined') ? 'decline' : defaultOutcome;
  }

  function resultOf(charge: FakeCharge): PaymentResult {
    if (charge.status === 'failed') {
      return {
        status: 'failed',
        provider_id: charge.provider_id,
        failure_code: 'card_declined',
        failure_message: DECLINE_MESSAGE,
      };
    }
    return {
      status: charge.status,
      provider_id: charge.provider_id,
      amount: charge.amount,
      client_secret: charge.status === 'requires_action' ? `${charge.provider_id}_secret_test` : null,
    };
  }

  async function createPayment(input: CreatePaymentInput): Promise<PaymentResult> {
    const existing = chargesByKey.get(input.idempotency_key);
    if (existing) return resultOf(existing);
    const outcome = outcomeOf(input.payment_method_id);
    const charge: FakeCharge = {
      provider_id: `pi_test_${String(charges.length + 1).padStart(6, '0')}`,
      amount: input.amount,
      currency: input.currency,
      payment_method_id: input.payment_method_id,
      idempotency_key: input.idempotency_key,
      status: outcome === 'succeed' ? 'succeeded' : outcome === 'decline' ? 'failed' : 'requires_action',
      reference: input.reference,
    };
    charges.push(charge);
    chargesByKey.set(input.idempotency_key, charge);
    return resultOf(charge);
  }

  return {
    name: options.name ?? FAKE_CARD_PROVIDER_NAME,
    requiresPaymentMethod: true,
    charges,
    refunds,
    setOutcome(paymentMethodId, outcome) {
      outcomes.set(paymentMethodId, outcome);
    },
    resolveAction(providerId, outcome) {
      const charge = charges.find((c) => c.provider_id === providerId);
      if (charge?.status !== 'requires_action') {
        throw new Error(`No payment waiting for action with provider id '${providerId}'`);
      }
      charge.status = outcome === 'succeed' ? 'succeeded' : 'failed';
      return resultOf(charge);
    },
    createPayment,
    async refundPayment(input: RefundPaymentInput): Promise<RefundResult> {
      const existing = refundsByKey.get(input.idempotency_key);
      if (existing) return { status: 'succeeded', provider_refund_id: existing.provider_refund_id };
      const refund: FakeRefund = {
        provider_refund_id: `re_test_${String(refunds.length + 1).padStart(6, '0')}`,
        provider_id: input.provider_id,
        amount: input.amount,
        currency: input.currency,
        idempotency_key: input.idempotency_key,
        reason: input.reason ?? null,
      };
      refunds.push(refund);
      refundsByKey.set(input.idempotency_key, refund);
      return { status: 'succeeded', provider_refund_id: refund.provider_refund_id };
    },
    /**
     * Like Stripe: a payment is found by its provider id or idempotency key; one never received
     * is performed now from `original` (replaying the creation under the same key), else null.
     */
    async lookupPayment(input: LookupPaymentInput): Promise<PaymentResult | null> {
      const charge =
        chargesByKey.get(input.idempotency_key) ??
        charges.find((c) => input.provider_id != null && c.provider_id === input.provider_id);
      if (charge) return resultOf(charge);
      return input.original ? createPayment(input.original) : null;
    },
  };
}
