import { CommerceError } from '@cartwright/core';
import type {
  CreatePaymentInput,
  LookupPaymentInput,
  PaymentProvider,
  PaymentResult,
  PaymentWebhookEvent,
  RefundPaymentInput,
  RefundResult,
} from '@cartwright/core/providers';

/**
 * A payment provider for engine-level fault tests whose every answer is scripted: a charge that
 * is taken but never answered (`charge_then_throw`), a provider never reached (`throw`), 3-D
 * Secure (`requires_action`), refunds that stay pending or are never answered, webhooks from a
 * JSON body. It keeps the state a real provider would, so reconciliation can ask it.
 */
export type ChargeScript =
  | 'succeed'
  | 'decline'
  | 'requires_action'
  /** An unconfirmed payment the storefront confirms in the browser (Stripe without a payment method). */
  | 'await'
  | 'charge_then_throw'
  | 'throw'
  | 'refuse';
export type RefundScript = 'succeed' | 'pending' | 'fail' | 'throw';

export interface ScriptedCharge {
  provider_id: string;
  idempotency_key: string;
  amount: number;
  status: PaymentResult['status'];
}

export interface ScriptedRefund {
  provider_refund_id: string;
  idempotency_key: string;
  amount: number;
  status: RefundResult['status'];
}

export interface ScriptedProvider extends PaymentProvider {
  charge: ChargeScript;
  refund: RefundScript;
  /** What `lookupPayment` does: answer from state (default), throw, or answer null. */
  lookup: 'state' | 'throw' | 'null' | 'refuse';
  readonly charges: ScriptedCharge[];
  readonly refunds: ScriptedRefund[];
  readonly calls: string[];
  /** Awaited after `lookupPayment` computed its answer, before it returns (to act in between). */
  afterLookup: (() => Promise<void>) | null;
  setCharge(providerId: string, status: PaymentResult['status'], amount?: number): void;
  setRefund(providerRefundId: string, status: RefundResult['status']): void;
}

export function createScriptedProvider(
  name = 'acme',
  options: { lookupPayment?: boolean; lookupRefund?: boolean; webhooks?: boolean } = {},
): ScriptedProvider {
  const charges: ScriptedCharge[] = [];
  const refunds: ScriptedRefund[] = [];
  const calls: string[] = [];
  const result = (c: ScriptedCharge): PaymentResult => ({
    status: c.status,
    provider_id: c.provider_id,
    amount: c.amount,
    ...(c.status === 'failed'
      ? { failure_code: 'card_declined', failure_message: 'Declined.' }
      : { client_secret: `${c.provider_id}_secret` }),
  });
  const provider: ScriptedProvider = {
    name,
    requiresPaymentMethod: false,
    charge: 'succeed',
    refund: 'succeed',
    lookup: 'state',
    afterLookup: null,
    charges,
    refunds,
    calls,
    setCharge(providerId, status, amount) {
      const c = charges.find((x) => x.provider_id === providerId);
      if (!c) throw new Error(`no charge ${providerId}`);
      c.status = status;
      if (amount !== undefined) c.amount = amount;
    },
    setRefund(providerRefundId, status) {
      const r = refunds.find((x) => x.provider_refund_id === providerRefundId);
      if (!r) throw new Error(`no refund ${providerRefundId}`);
      r.status = status;
    },
    async createPayment(input: CreatePaymentInput) {
      calls.push(`create:${input.idempotency_key}`);
      const existing = charges.find((c) => c.idempotency_key === input.idempotency_key);
      if (existing) return result(existing);
      const script = provider.charge;
      if (script === 'throw') throw new Error('connection refused');
      if (script === 'refuse') throw new CommerceError('parameter_invalid', 'No such payment method');
      const charge: ScriptedCharge = {
        provider_id: `pi_${name}_${charges.length + 1}`,
        idempotency_key: input.idempotency_key,
        amount: input.amount,
        status:
          script === 'decline'
            ? 'failed'
            : script === 'requires_action'
              ? 'requires_action'
              : script === 'await'
                ? 'awaiting_payment'
                : 'succeeded',
      };
      charges.push(charge);
      if (script === 'charge_then_throw') throw new Error('socket hang up');
      return result(charge);
    },
    async cancelPayment(input) {
      calls.push(`cancel:${input.provider_id}`);
      const c = charges.find((x) => x.provider_id === input.provider_id);
      // As at Stripe: money taken cannot be voided (refund it instead).
      if (c?.status === 'succeeded') {
        throw new CommerceError('invalid_state_transition', `${input.provider_id} has succeeded`);
      }
      if (c) c.status = 'cancelled';
      return { status: 'cancelled', provider_id: input.provider_id };
    },
    async refundPayment(input: RefundPaymentInput) {
      calls.push(`refund:${input.idempotency_key}`);
      const existing = refunds.find((r) => r.idempotency_key === input.idempotency_key);
      if (existing) return { status: existing.status, provider_refund_id: existing.provider_refund_id };
      const script = provider.refund;
      if (script === 'throw') throw new Error('timeout');
      if (script === 'fail') {
        return { status: 'failed', provider_refund_id: null, failure_message: 'Refunds are disabled' };
      }
      const refund: ScriptedRefund = {
        provider_refund_id: `re_${name}_${refunds.length + 1}`,
        idempotency_key: input.idempotency_key,
        amount: input.amount,
        status: script === 'pending' ? 'pending' : 'succeeded',
      };
      refunds.push(refund);
      return { status: refund.status, provider_refund_id: refund.provider_refund_id };
    },
  };
  if (options.lookupPayment !== false) {
    provider.lookupPayment = async (input: LookupPaymentInput) => {
      calls.push(`lookup:${input.idempotency_key}`);
      if (provider.lookup === 'throw') throw new Error('provider unreachable');
      if (provider.lookup === 'refuse') throw new CommerceError('parameter_invalid', 'Unknown payment');
      if (provider.lookup === 'null') return null;
      const c =
        charges.find((x) => x.idempotency_key === input.idempotency_key) ??
        charges.find((x) => input.provider_id != null && x.provider_id === input.provider_id);
      const answer = c ? result(c) : null;
      if (provider.afterLookup) await provider.afterLookup();
      return answer;
    };
  }
  if (options.lookupRefund !== false) {
    provider.lookupRefund = async ({ provider_refund_id }) => {
      const r = refunds.find((x) => x.provider_refund_id === provider_refund_id);
      return r ? { status: r.status, provider_refund_id: r.provider_refund_id } : null;
    };
  }
  if (options.webhooks !== false) {
    provider.parseWebhook = (input) => {
      if (input.headers.get('x-signature') === null) {
        throw new CommerceError('parameter_missing', 'Missing signature', { param: 'x-signature' });
      }
      return JSON.parse(input.raw_body) as PaymentWebhookEvent;
    };
  }
  return provider;
}

/** A webhook delivery of the scripted provider carrying `event`. */
export function webhookOf(event: Partial<PaymentWebhookEvent>, signed = true) {
  const body: PaymentWebhookEvent = {
    action: 'not_supported',
    provider_id: null,
    payment_id: null,
    event_id: `evt_${Math.random().toString(36).slice(2)}`,
    ...event,
  };
  return {
    raw_body: JSON.stringify(body),
    headers: { get: (h: string) => (signed && h === 'x-signature' ? 'sig' : null) },
  };
}
