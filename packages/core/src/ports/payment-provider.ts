/**
 * A payment provider (decisions §12, issue 6). Providers register by name; checkout's
 * `payment_provider` picks one. Every call that moves money carries an idempotency key so a
 * retried call (after a crash or timeout) never charges or refunds twice.
 */
export interface PaymentProvider {
  /** The name clients pass as `payment_provider` (`manual`, `stripe`, …). */
  readonly name: string;
  /** Whether checkout with this provider needs `payment_method_id`. */
  readonly requiresPaymentMethod: boolean;
  /** Create and confirm a payment for the order total. */
  createPayment(input: CreatePaymentInput): Promise<PaymentResult>;
  /** Capture a previously authorised payment, where the provider separates the steps. */
  capturePayment?(input: {
    provider_id: string;
    amount: number;
    currency: string;
    idempotency_key: string;
  }): Promise<PaymentResult>;
  /** Cancel/void an uncaptured payment. */
  cancelPayment?(input: { provider_id: string; idempotency_key: string }): Promise<PaymentResult>;
  /** Refund all or part of a completed payment. */
  refundPayment(input: RefundPaymentInput): Promise<RefundResult>;
  /**
   * The provider's view of a payment, for reconciliation. `null` when the provider never saw it.
   * When `provider_id` is unknown (the process died before storing it), pass the attempt's
   * `original` createPayment input: a provider whose only reliable lookup is to replay the
   * creation under the same idempotency key (Stripe) needs the identical parameters; such a
   * provider completes a creation it never received, exactly once, instead of returning `null`.
   */
  lookupPayment?(input: LookupPaymentInput): Promise<PaymentResult | null>;
}

/** What `lookupPayment` needs to find a payment. */
export interface LookupPaymentInput {
  provider_id?: string | null;
  idempotency_key: string;
  /** The createPayment input of the attempt (same idempotency key), for providers that replay it. */
  original?: CreatePaymentInput | undefined;
}

export interface CreatePaymentInput {
  amount: number;
  currency: string;
  idempotency_key: string;
  payment_method_id?: string | undefined;
  /** Our ids, for the provider's metadata and reconciliation. */
  reference: {
    payment_id: string;
    cart_id?: string | null;
    order_id?: string | null;
    store_id: string;
    mode: 'test' | 'live';
  };
  email?: string | null;
  /** Where a redirect-based authentication (3-D Secure) returns the customer, if the storefront has one. */
  return_url?: string | null;
}

/**
 * The closed set of outcomes a provider reduces to (Medusa style):
 * `succeeded` — money taken; `pending` — recorded, to be completed later (manual);
 * `requires_action` — the customer must act (3-D Secure), `client_secret` lets the storefront do it;
 * `failed` — declined, with a reason for the customer.
 */
export interface PaymentResult {
  status: 'succeeded' | 'pending' | 'requires_action' | 'failed' | 'cancelled';
  provider_id: string | null;
  amount?: number;
  client_secret?: string | null;
  failure_code?: string | null;
  failure_message?: string | null;
}

export interface RefundPaymentInput {
  provider_id: string | null;
  amount: number;
  currency: string;
  idempotency_key: string;
  reason?: string | null;
}

export interface RefundResult {
  status: 'succeeded' | 'pending' | 'failed';
  provider_refund_id: string | null;
  failure_message?: string | null;
}
