import { z } from 'zod';
import { type AnyRoute, defineRoute } from '../route';

const ProviderPathSchema = z
  .object({ provider: z.string().min(1).max(64) })
  .meta({ id: 'PaymentProviderPath' });

const PaymentWebhookAckSchema = z
  .object({
    received: z.literal(true),
    outcome: z.enum([
      'payment_completed',
      'payment_failed',
      'late_payment_refunded',
      'refund_completed',
      'refund_failed',
      'unchanged',
    ]),
  })
  .meta({
    id: 'PaymentWebhookAck',
    description:
      'The webhook was verified and handled; `outcome` says what it changed: a payment ' +
      '(`payment_completed`, `payment_failed`, `late_payment_refunded`), a refund the provider had ' +
      'answered `pending` (`refund_completed`, `refund_failed`), or nothing (`unchanged`: events ' +
      'that need nothing, repeated deliveries included).',
  });

/**
 * Payment provider webhooks. `POST /v1/webhooks/{provider}` — `/v1/webhooks/stripe` for
 * Stripe — takes no API key: the provider signs the delivery, and the route hands the exact raw
 * body and the headers to the provider's `parseWebhook` (Stripe: `Stripe-Signature`, verified
 * with the webhook secret, `STRIPE_WEBHOOK_SECRET`). A bad or missing signature → 400; a provider
 * that is not configured for webhooks → 404. Verified events complete a 3-D Secure payment (order
 * confirmed) or fail it (pending order cancelled), or settle a refund the provider had answered
 * `pending`; see `handleWebhook` in core.
 */
export const paymentsRoutes: AnyRoute[] = [
  defineRoute({
    method: 'POST',
    path: '/v1/webhooks/:provider',
    auth: 'none',
    customerToken: 'none',
    rawBody: true,
    params: ProviderPathSchema,
    response: PaymentWebhookAckSchema,
    summary: 'Receive a payment provider webhook',
    description:
      'Stripe: point an endpoint at `/v1/webhooks/stripe` for `payment_intent.succeeded`, ' +
      '`payment_intent.payment_failed` and `payment_intent.canceled` (3-D Secure payments), and ' +
      '`refund.updated` and `refund.failed` (refunds Stripe answered `pending`: the refund becomes ' +
      '`completed` or `failed`, `payment.refunded` is sent again). The body is read raw and verified ' +
      'with the `Stripe-Signature` header and the configured webhook secret. No API key.',
    tags: ['Payments'],
    operationId: 'receivePaymentWebhook',
    errors: ['parameter_missing', 'parameter_invalid', 'not_found'],
    handler: (ctx) =>
      ctx.engine.payments.handleWebhook(ctx.params.provider, {
        raw_body: ctx.rawBody ?? '',
        headers: ctx.headers,
      }),
  }),
];
