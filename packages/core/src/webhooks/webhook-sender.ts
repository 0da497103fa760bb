import type { WebhookTransport } from '../ports/webhook-transport';
import type { ServiceContext } from '../shared/context';
import { attemptError, isSuccessStatus } from './retry-schedule';
import { standardSignature } from './webhook-signing';

/** The transport, or a clear error for hosts that did not configure one. */
export function requireTransport(ctx: ServiceContext): WebhookTransport {
  if (ctx.webhookTransport) return ctx.webhookTransport;
  throw new Error(
    'No webhook transport is configured: pass `webhookTransport` to createEngine ' +
      "(e.g. createNodeWebhookTransport() from '@cartwright/webhooks') to deliver webhooks.",
  );
}

export interface SignedRequest {
  url: string;
  /**
   * The secrets that sign (`signingSecrets`): the webhook's current secret (`whsec_…`) first, then
   * its previous one during a rotation overlap.
   */
  secrets: readonly [string, ...string[]];
  /** The exact body, already serialised. */
  payload: string;
  /** `X-Webhook-Id` and `webhook-id`: the event id (a test delivery's own sample event id). */
  event_id: string;
  /** Epoch ms of the attempt (its `X-Webhook-Timestamp`). */
  at: number;
}

export interface SendOutcome {
  succeeded: boolean;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
}

/**
 * Signs and sends one delivery attempt (docs/contract.md#webhook-delivery, #limits): `POST`, `Content-Type: application/json`,
 * - `X-Webhook-Signature` = hex HMAC-SHA256 of the exact body keyed with the whole CURRENT secret
 *   (the spec's header; one value, also during a rotation overlap),
 * - `X-Webhook-Id` = the event id, `X-Webhook-Timestamp` = unix seconds,
 * - the Standard Webhooks headers: `webhook-id` (= `X-Webhook-Id`), `webhook-timestamp`
 *   (= `X-Webhook-Timestamp`) and `webhook-signature`, one `v1,<base64>` per signing secret
 *   (current first), space-separated (`standardSignature`).
 * 2xx is success. A transport that throws counts as a failed attempt, never as a crash of the batch.
 */
export async function sendSigned(
  ctx: ServiceContext,
  transport: WebhookTransport,
  request: SignedRequest,
): Promise<SendOutcome> {
  const timestamp = Math.floor(request.at / 1000);
  const [signature, ...standard] = await Promise.all([
    ctx.crypto.hmacSha256Hex(request.secrets[0], request.payload),
    ...request.secrets.map((secret) =>
      standardSignature(secret, request.event_id, timestamp, request.payload),
    ),
  ]);
  const headers = {
    'content-type': 'application/json',
    'x-webhook-signature': signature as string,
    'x-webhook-id': request.event_id,
    'x-webhook-timestamp': String(timestamp),
    'webhook-id': request.event_id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': standard.join(' '),
  };
  try {
    const result = await transport.send({
      url: request.url,
      body: request.payload,
      headers,
      timeout_ms: ctx.config.webhook_timeout_ms,
    });
    return {
      succeeded: isSuccessStatus(result.status_code),
      status_code: result.status_code,
      duration_ms: Math.max(0, Math.round(result.duration_ms)),
      error: attemptError(result.status_code, result.error),
    };
  } catch (error) {
    return {
      succeeded: false,
      status_code: null,
      duration_ms: 0,
      error: `transport error: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}
