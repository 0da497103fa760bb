/**
 * Sends one signed webhook delivery (docs/contract.md#webhook-delivery). The engine builds and signs the body; the
 * transport only does the network part: POST, no redirects, a timeout, connecting to the address
 * that passed the URL safety check. Implemented with node:http in the server packages.
 */
export interface WebhookTransport {
  send(request: WebhookTransportRequest): Promise<WebhookTransportResult>;
  /**
   * Optional creation-time check of a webhook URL (docs/contract.md#webhook-delivery: 422 `url_not_allowed` for
   * loopback, private, link-local and metadata targets, by literal address or by DNS answer).
   * The engine calls it on `POST`/`PATCH /v1/admin/webhooks` unless `allow_private_webhooks`;
   * `send` must check again at every delivery, since DNS answers change.
   */
  checkUrl?(url: string): Promise<WebhookUrlCheckResult>;
}

/** The outcome of {@link WebhookTransport.checkUrl}; `reason` is shown in the 422 message. */
export type WebhookUrlCheckResult = { allowed: true } | { allowed: false; reason: string };

export interface WebhookTransportRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeout_ms: number;
}

export interface WebhookTransportResult {
  /**
   * HTTP status, or null when no response arrived (network error, timeout, refused URL). A
   * redirect is never followed: its 3xx status is returned as is.
   */
  status_code: number | null;
  duration_ms: number;
  /** Why no response arrived (null when one did, whatever its status). */
  error: string | null;
}
