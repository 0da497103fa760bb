/**
 * Sends one signed webhook delivery (decisions §14). The engine builds and signs the body; the
 * transport only does the network part: POST, no redirects, a timeout, connecting to the address
 * that passed the URL safety check. Implemented with node:http in the server packages.
 */
export interface WebhookTransport {
  send(request: WebhookTransportRequest): Promise<WebhookTransportResult>;
}

export interface WebhookTransportRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeout_ms: number;
}

export interface WebhookTransportResult {
  /** HTTP status, or null when no response arrived (network error, timeout, refused URL). */
  status_code: number | null;
  duration_ms: number;
  error: string | null;
}
