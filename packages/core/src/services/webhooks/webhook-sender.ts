import type { WebhookTransport } from '../../ports/webhook-transport';
import type { ServiceContext } from '../context';
import { attemptError, isSuccessStatus } from './retry-schedule';

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
  /** The webhook's whole secret (`whsec_…`), the HMAC key. */
  secret: string;
  /** The exact body, already serialised. */
  payload: string;
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
 * Signs and sends one delivery attempt (decisions §14): `POST`, `Content-Type: application/json`,
 * `X-Webhook-Signature` = hex HMAC-SHA256 of the exact body keyed with the whole secret,
 * `X-Webhook-Id` = the event id, `X-Webhook-Timestamp` = unix seconds. 2xx is success. A transport
 * that throws counts as a failed attempt, never as a crash of the batch.
 */
export async function sendSigned(
  ctx: ServiceContext,
  transport: WebhookTransport,
  request: SignedRequest,
): Promise<SendOutcome> {
  const signature = await ctx.crypto.hmacSha256Hex(request.secret, request.payload);
  const headers = {
    'content-type': 'application/json',
    'x-webhook-signature': signature,
    'x-webhook-id': request.event_id,
    'x-webhook-timestamp': String(Math.floor(request.at / 1000)),
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
