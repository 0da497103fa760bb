import { createHmac } from 'node:crypto';
import Stripe from 'stripe';

/**
 * A `Stripe-Signature` header for `payload`, as Stripe signs webhook deliveries:
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<payload>" keyed with the endpoint secret>`.
 * `timestamp` (unix seconds) defaults to now; pass an old one to test the tolerance window.
 */
export function signWebhook(
  payload: string,
  secret: string,
  timestamp = Math.floor(Date.now() / 1000),
): string {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${signature}`;
}

/**
 * The same header made by the official `stripe` library's test helper
 * (`Stripe.webhooks.generateTestHeaderString`), for tests that must show a delivery signed the
 * way Stripe's own tooling signs it is accepted.
 */
export function signWithStripeLibrary(payload: string, secret: string, timestamp?: number): string {
  return Stripe.webhooks.generateTestHeaderString({
    payload,
    secret,
    ...(timestamp !== undefined && { timestamp }),
  });
}
