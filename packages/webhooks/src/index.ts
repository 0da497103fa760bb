/**
 * `@cartwright/webhooks`: webhooks on Node. `createNodeWebhookTransport` delivers the engine's
 * signed webhooks (SSRF-safe, no redirects, timeout); `verifyWebhookSignature` (the spec's
 * `X-Webhook-Signature`) and `verifyStandardWebhook` (the Standard Webhooks headers, with replay
 * protection) are for receivers.
 */
export { createNodeWebhookTransport, type NodeWebhookTransportOptions } from './node-webhook-transport';
export {
  blockedAddressReason,
  blockedHostnameReason,
  type CheckWebhookUrlOptions,
  checkWebhookUrl,
  type ResolvedAddress,
  type Resolver,
  systemResolver,
  type UrlCheck,
} from './url-safety';
export {
  standardWebhookKey,
  type VerifyStandardWebhookOptions,
  verifyStandardWebhook,
  verifyWebhookSignature,
  type WebhookHeaders,
} from './verify-webhook-signature';
