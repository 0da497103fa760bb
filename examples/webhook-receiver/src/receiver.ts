import { createServer, type Server } from 'node:http';
import { verifyStandardWebhook } from '@cartwright/webhooks';

/** The body of every Cartwright webhook delivery. */
export interface WebhookEvent {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
  store_id: string;
}

export interface ReceiverOptions {
  /** The webhook's secret (`whsec_…`), as returned once by `POST /v1/admin/webhooks`. */
  secret: string;
  /** Your handler. Keep it fast: answer 2xx within 10 s, do slow work in the background. */
  onEvent(event: WebhookEvent): void | Promise<void>;
  /** Request path to accept; default `/webhooks`. */
  path?: string;
}

const MAX_BODY_BYTES = 1024 * 1024;

/**
 * A webhook receiver on plain node:http:
 * 1. reads the raw body (the signature covers these exact bytes — never re-serialise the JSON),
 * 2. verifies the Standard Webhooks headers with `verifyStandardWebhook` (constant time): the
 *    signature over id, timestamp and body, and a timestamp within 5 minutes, so a captured
 *    delivery cannot be replayed later → 400 if either is wrong,
 * 3. drops repeats by `webhook-id` (delivery is at-least-once; the event id is the dedup key),
 * 4. hands the event to `onEvent` and answers 200 (any non-2xx makes Cartwright retry).
 */
export function createWebhookReceiver(options: ReceiverOptions): Server {
  const path = options.path ?? '/webhooks';
  // In production keep seen ids in your database (e.g. a unique column), not in memory.
  const seen = new Set<string>();

  return createServer((req, res) => {
    const reply = (status: number, text: string) => {
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(text);
    };
    if (req.url?.split('?')[0] !== path) return reply(404, 'not found');
    if (req.method !== 'POST') return reply(405, 'method not allowed');

    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) req.destroy();
      else chunks.push(chunk);
    });
    req.on('end', async () => {
      const raw = Buffer.concat(chunks);
      if (!verifyStandardWebhook(raw, req.headers, options.secret)) {
        return reply(400, 'invalid signature or timestamp');
      }
      const event = JSON.parse(raw.toString('utf8')) as WebhookEvent;
      const id = String(req.headers['webhook-id']);
      if (seen.has(id)) return reply(200, 'duplicate ignored');
      try {
        await options.onEvent(event);
        seen.add(id);
        reply(200, 'ok');
      } catch {
        reply(500, 'handler failed; Cartwright will retry');
      }
    });
  });
}
