/**
 * A payment provider (docs/contract.md#checkout). Providers register by name; checkout's
 * `payment_provider` picks one. Every call that moves money carries an idempotency key so a
 * retried call (after a crash or timeout) never charges or refunds twice.
 */
export interface PaymentProvider {
  /** The name clients pass as `payment_provider` (`manual`, `stripe`, …). */
  readonly name: string;
  /**
   * Whether checkout with this provider needs `payment_method_id`. Stripe does not: without one it
   * creates a payment the storefront confirms in the browser (`awaiting_payment`).
   */
  readonly requiresPaymentMethod: boolean;
  /**
   * Declares that `createPayment` does no I/O and cannot fail or hang: it only computes an
   * outcome from its input (the `manual` provider records a pending payment). The engine may then
   * call it INSIDE the checkout transaction, so checkout runs as one transaction — claim checks,
   * reservation, this call, discount uses, order number, order and its payment (inserted once,
   * in its final state) — instead of claim → provider → settle. Because that transaction can
   * still roll back after the call (a discount used up concurrently, a lost race for the last
   * unit), the outcome must have no effect outside the returned value: nothing is charged,
   * recorded or sent. A decline (`failed` / `cancelled`) or a thrown refusal is recorded exactly
   * as on the two-transaction path (a `failed` attempt, `payment.failed`, units released).
   * Leave it unset for every provider that talks to a payment service (Stripe): a crash between
   * that call and the order must stay reconcilable.
   */
  readonly settlesInProcess?: boolean;
  /**
   * Create and confirm a payment for the order total. Without `payment_method_id` a provider may
   * instead create a payment for the customer to confirm in the browser and answer
   * `awaiting_payment` with its `client_secret`.
   */
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
   * The provider's current view of a refund it answered `pending` (it refunds asynchronously),
   * for reconciliation: `succeeded` / `failed` once final, `pending` while it still processes,
   * `null` when the provider does not know `provider_refund_id`. Providers whose refunds are
   * final at once leave it out; their pending refunds are then settled by webhook only.
   */
  lookupRefund?(input: { provider_refund_id: string }): Promise<RefundResult | null>;
  /**
   * The provider's view of a payment, for reconciliation. `null` when the provider never saw it.
   * When `provider_id` is unknown (the process died before storing it), pass the attempt's
   * `original` createPayment input: a provider whose only reliable lookup is to replay the
   * creation under the same idempotency key (Stripe) needs the identical parameters; such a
   * provider completes a creation it never received, exactly once, instead of returning `null`.
   */
  lookupPayment?(input: LookupPaymentInput): Promise<PaymentResult | null>;
  /**
   * Verifies a webhook delivery of this provider (signature over the exact raw body, with the
   * provider's webhook secret) and reduces it to a {@link PaymentWebhookEvent}. A missing
   * signature throws `parameter_missing`, a wrong or stale one `parameter_invalid` (both 400).
   * Providers without webhooks leave it out; `POST /v1/webhooks/{provider}` then answers 404.
   */
  parseWebhook?(input: PaymentWebhookInput): PaymentWebhookEvent | Promise<PaymentWebhookEvent>;
}

/** A webhook delivery as received: the exact body text and the request headers. */
export interface PaymentWebhookInput {
  raw_body: string;
  /** Reads a request header by lower-case name (`Headers` satisfies it). */
  headers: { get(name: string): string | null };
}

/**
 * A verified provider webhook, reduced to the closed set of actions the engine acts on (Medusa
 * style): `succeeded` (money taken), `failed` (declined or authentication failed), `canceled`,
 * `requires_action` (the customer must act), `refund_updated` (a refund's status at the
 * provider: see `refund_status`), `not_supported` (acknowledge and ignore).
 * Structurally the same as `@cartwright/payments-stripe`'s `StripeWebhookResult`.
 */
export interface PaymentWebhookEvent {
  action: 'succeeded' | 'failed' | 'requires_action' | 'canceled' | 'refund_updated' | 'not_supported';
  /** The provider's payment id (Stripe's PaymentIntent `pi_…`; for a refund, the payment it refunds). */
  provider_id: string | null;
  /** Our payment id, from the provider's metadata (`CreatePaymentInput.reference.payment_id`). */
  payment_id: string | null;
  /** The provider's event id (its de-duplication key). */
  event_id: string;
  event_type?: string | undefined;
  /** The amount and currency the provider reports, checked against the payment on record. */
  amount?: number | null | undefined;
  currency?: string | null | undefined;
  failure_code?: string | null | undefined;
  failure_message?: string | null | undefined;
  /** Our store and mode from the provider's metadata, when the provider reports them. */
  store_id?: string | null | undefined;
  mode?: 'test' | 'live' | null | undefined;
  /** `refund_updated`: the provider's refund id (Stripe's `re_…`). */
  provider_refund_id?: string | null | undefined;
  /** `refund_updated`: our refund id, from the provider's metadata (`RefundPaymentInput.reference.refund_id`). */
  refund_id?: string | null | undefined;
  /** `refund_updated`: the refund's status at the provider, reduced like `RefundResult.status`. */
  refund_status?: 'succeeded' | 'pending' | 'failed' | null | undefined;
  /** `refund_updated`: the order the refund belongs to, from the provider's metadata. */
  order_id?: string | null | undefined;
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
 * `succeeded` — money taken; `pending` — recorded, to be completed later (manual), or still
 * processing at the provider;
 * `requires_action` — the customer must act (3-D Secure), `client_secret` lets the storefront do it;
 * `awaiting_payment` — created without a payment method: the storefront confirms it in the
 * browser with `client_secret` (Stripe.js), and the provider's webhook or a lookup settles it;
 * the order waits for it until the payment timeout (docs/payments.md#browser-confirmation);
 * `failed` — declined, with a reason for the customer.
 */
export interface PaymentResult {
  status: 'succeeded' | 'pending' | 'requires_action' | 'awaiting_payment' | 'failed' | 'cancelled';
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
  /**
   * Our ids, for the provider's metadata: a refund the provider settles later (it answered
   * `pending`) is then matched to its order and refund by the provider's webhook. Absent for
   * refunds that are not Refund records (a checkout attempt's give-back, a late payment's refund).
   */
  reference?: RefundReference | undefined;
}

/** Our ids of a refund, as `RefundPaymentInput.reference` (like `CreatePaymentInput.reference`). */
export interface RefundReference {
  refund_id: string;
  order_id: string;
  store_id: string;
  mode: 'test' | 'live';
}

export interface RefundResult {
  status: 'succeeded' | 'pending' | 'failed';
  provider_refund_id: string | null;
  failure_message?: string | null;
}
