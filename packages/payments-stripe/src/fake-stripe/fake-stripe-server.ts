import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeStripeError } from './fake-stripe-error';
import { FakeStripeLedger, fakeId } from './fake-stripe-ledger';
import { routeRequest } from './fake-stripe-routes';
import type {
  FakeCharge,
  FakeEvent,
  FakePaymentIntent,
  FakeRefund,
  NetworkFailureMode,
  RecordedRequest,
} from './fake-stripe-types';
import { canonicalParams, type FormObject, parseForm } from './form-encoding';
import { IdempotencyStore } from './idempotency-store';
import { signWebhook } from './webhook-signature';

/** Options of `startFakeStripe`. */
export interface FakeStripeOptions {
  /** TCP port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
  /** When set, only this secret key is accepted (401 otherwise); by default any `sk_…`/`rk_…` key is. */
  secretKey?: string;
  /** Where the fake reads the time, in epoch ms (default `Date.now`). */
  now?: () => number;
}

/** A running fake Stripe API (see `startFakeStripe`). */
export interface FakeStripe {
  /** Base URL to give the Stripe client (`STRIPE_API_BASE`), e.g. `http://127.0.0.1:54321`. */
  readonly url: string;
  readonly port: number;
  /** Every request received, in order (a live array; `reset()` empties it). */
  readonly requests: RecordedRequest[];
  /** Successful charges: money taken (`captured`) or held for manual capture. */
  charges(): FakeCharge[];
  /** Every charge, declined attempts included. */
  allCharges(): FakeCharge[];
  refunds(): FakeRefund[];
  intents(): FakePaymentIntent[];
  /** The current state of one intent (throws for an unknown id). */
  intent(id: string): FakePaymentIntent;
  /** The events the fake's state changes produced, oldest first (`payment_intent.succeeded`, …). */
  events(): FakeEvent[];
  /** A fresh event of `type` carrying the intent's current state, for webhook tests. */
  webhookEvent(type: string, intentId: string): FakeEvent;
  /** A fresh event of `type` carrying the refund's current state (`refund.updated`, `charge.refund.updated`, …). */
  refundWebhookEvent(type: string, refundId: string): FakeEvent;
  /**
   * Finishes a refund still `pending` (a charge of `pm_card_pendingRefund`): `succeeded`, or
   * `failed` (its amount is no longer refunded on the charge; `failureReason` default
   * `expired_or_canceled_card`). Records `refund.updated` (and `refund.failed`) in `events()`.
   */
  settleRefund(refundId: string, outcome: 'succeeded' | 'failed', failureReason?: string): FakeRefund;
  /** How the next request(s) fail on the wire (see `NetworkFailureMode`). */
  setNetworkFailure(mode: NetworkFailureMode): void;
  /** Finishes the 3-D Secure step of an intent in `requires_action`. */
  completeAction(intentId: string, outcome: 'succeed' | 'fail'): FakePaymentIntent;
  /**
   * Confirms an intent as the storefront's Stripe.js does with its client secret (an intent
   * created without a payment method, awaiting the customer): `pm_card_visa` takes the money
   * (`payment_intent.succeeded` in `events()`); a declining card leaves it
   * `requires_payment_method` with `last_payment_error` (`payment_intent.payment_failed`), so the
   * customer can try another card; `pm_card_authenticationRequired` asks for 3-D Secure (finish
   * it with `completeAction`). Returns the intent as it stands (not a request: not in `requests`).
   */
  confirmIntent(intentId: string, paymentMethod: string): FakePaymentIntent;
  /** A valid `Stripe-Signature` header for `payload` (`timestamp` in unix seconds, default now). */
  signWebhook(payload: string, secret: string, timestamp?: number): string;
  /** Forgets every object, request, idempotent response and failure mode. */
  reset(): void;
  stop(): Promise<void>;
}

/**
 * Starts a fake of Stripe's API on 127.0.0.1 for tests: the endpoints the Stripe provider uses
 * (PaymentIntents create/retrieve/confirm/capture/cancel, Refunds create/retrieve, Charges
 * retrieve), form-encoded requests and JSON answers shaped as Stripe's, so the official
 * `stripe` client parses them. Behaviour follows Stripe's test payment methods (`pm_card_visa`
 * succeeds, `pm_card_chargeDeclined` declines, `pm_card_authenticationRequired` needs 3-D
 * Secure…, `pm_card_pendingRefund` refunds asynchronously: see `settleRefund`), its idempotency rules (see `IdempotencyStore`), and it can fail on the wire on
 * demand to simulate "the provider took the money but we never heard back".
 */
export async function startFakeStripe(options: FakeStripeOptions = {}): Promise<FakeStripe> {
  const now = options.now ?? Date.now;
  let url = '';
  const ledger = new FakeStripeLedger(now, () => url);
  const idempotency = new IdempotencyStore();
  const requests: RecordedRequest[] = [];
  let failure: NetworkFailureMode = 'none';

  /** The failure to apply to the request arriving now; `-next` modes are consumed by it. */
  const takeFailure = (): NetworkFailureMode => {
    const current = failure;
    if (current.endsWith('-next')) failure = 'none';
    return current;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const mode = takeFailure();
    const target = new URL(req.url ?? '/', 'http://fake-stripe');
    const method = (req.method ?? 'GET').toUpperCase();
    const raw = await readBody(req);
    const params: FormObject =
      method === 'GET' || method === 'DELETE' ? parseForm(target.search.slice(1)) : parseForm(raw);
    const record: RecordedRequest = {
      method,
      path: target.pathname,
      params,
      idempotency_key: header(req, 'idempotency-key'),
      authorization: header(req, 'authorization'),
      stripe_version: header(req, 'stripe-version'),
      status: null,
      outcome: 'answered',
      replayed: false,
      received_at: now(),
    };
    requests.push(record);

    if (mode === 'refuse-next' || mode === 'refuse-all') {
      record.outcome = 'refused';
      req.socket.destroy();
      return;
    }

    const answer = (status: number, body: string, extra: Record<string, string> = {}) => {
      if (mode === 'drop-next' || mode === 'drop-all') {
        record.outcome = 'dropped';
        req.socket.destroy();
        return;
      }
      if (mode === 'hang-next') {
        record.outcome = 'hung';
        return;
      }
      record.status = status;
      res.writeHead(status, {
        'Content-Type': 'application/json',
        'Request-Id': extra['Request-Id'] ?? fakeId('req'),
        'Stripe-Version': record.stripe_version ?? 'fake',
        ...(record.idempotency_key === null ? {} : { 'Idempotency-Key': record.idempotency_key }),
        ...extra,
      });
      res.end(body);
    };

    const denied = authenticate(record.authorization, options.secretKey);
    if (denied !== null)
      return answer(401, JSON.stringify({ error: { type: 'invalid_request_error', message: denied } }));

    if (mode === 'error-next') {
      return answer(
        500,
        JSON.stringify({
          error: { type: 'api_error', message: 'An unknown error occurred while processing.' },
        }),
      );
    }

    const endpoint = `${method} ${target.pathname}`;
    const canonical = canonicalParams(params);
    const scope = record.authorization ?? '';
    const key = method === 'POST' ? record.idempotency_key : null;
    if (key !== null) {
      const verdict = idempotency.check(scope, key, endpoint, canonical);
      if (verdict.kind === 'reject') {
        return answer(verdict.error.status, JSON.stringify({ error: verdict.error.body }));
      }
      if (verdict.kind === 'replay') {
        record.replayed = true;
        return answer(verdict.status, verdict.body, {
          'Idempotent-Replayed': 'true',
          'Original-Request': verdict.request_id,
        });
      }
    }

    const request_id = fakeId('req');
    let status = 200;
    let body: string;
    try {
      body = JSON.stringify(routeRequest(ledger, method, target.pathname, params));
    } catch (error) {
      if (!(error instanceof FakeStripeError)) throw error;
      status = error.status;
      body = JSON.stringify({
        error: { ...error.body, request_log_url: `${url}/logs/${request_id}` },
      });
    }
    if (key !== null)
      idempotency.remember(scope, key, { endpoint, params: canonical, status, body, request_id });
    answer(status, body, { 'Request-Id': request_id });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent || res.destroyed) return;
      res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'api_error', message: String(error) } }));
    });
  });
  server.keepAliveTimeout = 1000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  url = `http://127.0.0.1:${port}`;

  return {
    url,
    port,
    requests,
    charges: () => ledger.charges(),
    allCharges: () => ledger.allCharges(),
    refunds: () => ledger.refunds(),
    intents: () => ledger.intents(),
    intent: (id) => ledger.retrievePaymentIntent(id),
    events: () => ledger.events(),
    webhookEvent: (type, intentId) => ledger.eventFor(type, intentId),
    refundWebhookEvent: (type, refundId) => ledger.eventForRefund(type, refundId),
    settleRefund: (refundId, outcome, failureReason) => ledger.settleRefund(refundId, outcome, failureReason),
    setNetworkFailure: (mode) => {
      failure = mode;
    },
    completeAction: (intentId, outcome) => ledger.completeAction(intentId, outcome),
    confirmIntent: (intentId, paymentMethod) => {
      try {
        return ledger.confirmPaymentIntent(intentId, { payment_method: paymentMethod });
      } catch (error) {
        // A decline answers 402 to the browser; the intent keeps the error and waits for another card.
        if (error instanceof FakeStripeError && error.status === 402)
          return ledger.retrievePaymentIntent(intentId);
        throw error;
      }
    },
    signWebhook,
    reset: () => {
      ledger.reset();
      idempotency.clear();
      requests.length = 0;
      failure = 'none';
    },
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function header(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  if (value === undefined) return null;
  return Array.isArray(value) ? (value[0] ?? null) : value;
}

/** `null` when the key is accepted, else the message of Stripe's 401. */
function authenticate(authorization: string | null, expected: string | undefined): string | null {
  const match = authorization === null ? null : /^Bearer (\S+)$/.exec(authorization);
  if (!match) {
    return (
      'You did not provide an API key. You need to provide your API key in the Authorization header, ' +
      'using Bearer auth (e.g. "Authorization: Bearer YOUR_SECRET_KEY").'
    );
  }
  const key = match[1]!;
  const accepted = expected === undefined ? /^(sk|rk)_(test|live)_\w+$/.test(key) : key === expected;
  return accepted ? null : `Invalid API Key provided: ${key.slice(0, 8)}${'*'.repeat(4)}${key.slice(-4)}`;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
