import type {
  WebhookTransport,
  WebhookTransportRequest,
  WebhookTransportResult,
} from '@cartwright/core/providers';

/** A delivery the capture transport received, with its body parsed. */
export interface CapturedDelivery extends WebhookTransportRequest {
  /** The event payload (`{ id, type, created_at, data, store_id }`). */
  event: { id: string; type: string; created_at: string; data: Record<string, unknown>; store_id: string };
}

/** How the pretend receiver answers: an HTTP status, or `null` for "no response" (a network error). */
export type CaptureResponder = (request: CapturedDelivery) => number | null;

/** A webhook transport that delivers into memory, for assertions on webhooks without a server. */
export interface CaptureTransport extends WebhookTransport {
  /** Every delivery attempt, in order (retries included). */
  readonly deliveries: readonly CapturedDelivery[];
  /** Changes how later attempts are answered. */
  respondWith(responder: CaptureResponder | number | null): void;
}

/**
 * A {@link WebhookTransport} that records each signed delivery instead of sending it and answers
 * with `status` (default 200). With it, `t.engine.webhooks.deliverDue()` runs the real outbox,
 * fan-out, signing, retry and deactivation logic in memory; advance `t.clock` to reach retries.
 * Every URL is allowed (no DNS, no network).
 */
export function createCaptureTransport(status: CaptureResponder | number | null = 200): CaptureTransport {
  const deliveries: CapturedDelivery[] = [];
  let responder: CaptureResponder = typeof status === 'function' ? status : () => status;
  return {
    deliveries,
    respondWith(next) {
      responder = typeof next === 'function' ? next : () => next;
    },
    async checkUrl() {
      return { allowed: true };
    },
    async send(request: WebhookTransportRequest): Promise<WebhookTransportResult> {
      const delivery: CapturedDelivery = { ...request, event: JSON.parse(request.body) };
      deliveries.push(delivery);
      const code = responder(delivery);
      return code === null
        ? { status_code: null, duration_ms: 0, error: 'no response (capture transport)' }
        : { status_code: code, duration_ms: 0, error: null };
    },
  };
}
