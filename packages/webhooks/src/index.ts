/**
 * `@cartwright/webhooks`: webhooks on Node. `createNodeWebhookTransport` delivers the engine's
 * signed webhooks (SSRF-safe, no redirects, timeout); `verifyWebhookSignature` is for receivers.
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
export { verifyWebhookSignature } from './verify-webhook-signature';
