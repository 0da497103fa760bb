import { FakeStripeError } from './fake-stripe-error';
import type { FakeStripeLedger } from './fake-stripe-ledger';
import type { FormObject } from './form-encoding';

type Handler = (ledger: FakeStripeLedger, id: string, params: FormObject) => unknown;

const ROUTES: ReadonlyArray<{ method: 'GET' | 'POST'; pattern: RegExp; handler: Handler }> = [
  { method: 'POST', pattern: /^\/v1\/payment_intents$/, handler: (l, _id, p) => l.createPaymentIntent(p) },
  {
    method: 'GET',
    pattern: /^\/v1\/payment_intents\/([^/]+)$/,
    handler: (l, id) => l.retrievePaymentIntent(id),
  },
  {
    method: 'POST',
    pattern: /^\/v1\/payment_intents\/([^/]+)\/confirm$/,
    handler: (l, id, p) => l.confirmPaymentIntent(id, p),
  },
  {
    method: 'POST',
    pattern: /^\/v1\/payment_intents\/([^/]+)\/capture$/,
    handler: (l, id, p) => l.capturePaymentIntent(id, p),
  },
  {
    method: 'POST',
    pattern: /^\/v1\/payment_intents\/([^/]+)\/cancel$/,
    handler: (l, id, p) => l.cancelPaymentIntent(id, p),
  },
  { method: 'POST', pattern: /^\/v1\/refunds$/, handler: (l, _id, p) => l.createRefund(p) },
  { method: 'GET', pattern: /^\/v1\/refunds\/([^/]+)$/, handler: (l, id) => l.retrieveRefund(id) },
  { method: 'GET', pattern: /^\/v1\/charges\/([^/]+)$/, handler: (l, id) => l.retrieveCharge(id) },
];

/**
 * Dispatches one request to the ledger: the endpoints the Stripe provider uses, and nothing
 * else (anything else → 404 `Unrecognized request URL`, as Stripe answers).
 */
export function routeRequest(
  ledger: FakeStripeLedger,
  method: string,
  path: string,
  params: FormObject,
): unknown {
  for (const route of ROUTES) {
    if (route.method !== method) continue;
    const match = route.pattern.exec(path);
    if (match) return route.handler(ledger, decodeURIComponent(match[1] ?? ''), params);
  }
  throw new FakeStripeError(404, {
    type: 'invalid_request_error',
    message: `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
  });
}
