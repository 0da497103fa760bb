import {
  DeletedResponseSchema,
  IdPathSchema,
  ListQuerySchema,
  NotificationListSchema,
  WebhookCreateSchema,
  WebhookDeliveryListSchema,
  WebhookDeliveryPathSchema,
  WebhookDeliverySchema,
  WebhookListSchema,
  WebhookSchema,
  WebhookTestResultSchema,
  WebhookTestSchema,
  WebhookUpdateSchema,
} from '../schemas';
import { pageOf } from './call';
import { defineOperation } from './operation';

const tags = ['Webhooks'];

/**
 * Webhooks, their deliveries (and manual retries), test deliveries, secret rotation and dashboard
 * notifications (docs/contract.md#webhook-delivery, #standard-webhooks).
 */
export const webhooksOperations = [
  defineOperation({
    name: 'webhooks.create',
    http: { method: 'POST', path: '/v1/admin/webhooks' },
    auth: 'secret',
    customerToken: 'none',
    input: WebhookCreateSchema,
    response: WebhookSchema,
    summary: 'Create a webhook',
    description:
      'The response is the only one (besides rotate-secret) that shows the `secret` (`whsec_` + standard base64 ' +
      'of 32 random bytes) used to sign deliveries. `events` are event types or `["*"]`. Unless private ' +
      'targets are allowed, a URL that is or resolves to a loopback, private, link-local or metadata address ' +
      'is refused (422 `url_not_allowed`). `is_active: false` creates it inactive: it receives no deliveries ' +
      'until `PATCH { "is_active": true }`, and then only events created from that moment.\n\n' +
      'Every delivery is a `POST` of the event JSON with the headers `X-Webhook-Signature` (hex HMAC-SHA256 of ' +
      'the exact body keyed with the whole secret string), `X-Webhook-Id` (event id), `X-Webhook-Timestamp` ' +
      '(unix seconds), and the Standard Webhooks headers `webhook-id`, `webhook-timestamp` and ' +
      '`webhook-signature` (`v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` keyed with ' +
      'the base64-decoded part of the secret after `whsec_`; several space-separated during a rotation), ' +
      'which off-the-shelf verifiers such as `standardwebhooks` check, with replay protection.',
    tags,
    errors: ['url_not_allowed'],
    run: async (s, c) => s.webhooks.create(c.scope, c.input),
  }),
  defineOperation({
    name: 'webhooks.list',
    http: { method: 'GET', path: '/v1/admin/webhooks' },
    auth: 'secret',
    customerToken: 'none',
    inputIn: 'query',
    input: ListQuerySchema,
    response: WebhookListSchema,
    summary: 'List webhooks',
    tags,
    run: async (s, c) => s.webhooks.list(c.scope, pageOf(c.input)),
  }),
  defineOperation({
    name: 'webhooks.get',
    http: { method: 'GET', path: '/v1/admin/webhooks/:id' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    response: WebhookSchema,
    summary: 'Retrieve a webhook',
    tags,
    errors: ['not_found'],
    run: async (s, c) => s.webhooks.get(c.scope, c.params.id),
  }),
  defineOperation({
    name: 'webhooks.update',
    http: { method: 'PATCH', path: '/v1/admin/webhooks/:id' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    input: WebhookUpdateSchema,
    response: WebhookSchema,
    summary: 'Update a webhook',
    description:
      'Changes `url`, `events`, `is_active` or `metadata`. Re-activating (`is_active: true`) resets ' +
      '`consecutive_failures` to 0; deactivating cancels pending deliveries.',
    tags,
    errors: ['not_found', 'url_not_allowed'],
    run: async (s, c) => s.webhooks.update(c.scope, c.params.id, c.input),
  }),
  defineOperation({
    name: 'webhooks.delete',
    http: { method: 'DELETE', path: '/v1/admin/webhooks/:id' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    response: DeletedResponseSchema,
    summary: 'Delete a webhook',
    tags,
    errors: ['not_found'],
    run: async (s, c) => s.webhooks.delete(c.scope, c.params.id),
  }),
  defineOperation({
    name: 'webhooks.listDeliveries',
    http: { method: 'GET', path: '/v1/admin/webhooks/:id/deliveries' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    inputIn: 'query',
    input: ListQuerySchema,
    response: WebhookDeliveryListSchema,
    summary: "List a webhook's deliveries",
    description:
      'Newest first. Each delivery shows its status, the number of attempts, the latest status code, duration ' +
      'and error, the next retry time, and its `attempts`.',
    tags,
    errors: ['not_found'],
    run: async (s, c) => s.webhooks.listDeliveries(c.scope, c.params.id, pageOf(c.input)),
  }),
  defineOperation({
    name: 'webhooks.retryDelivery',
    http: { method: 'POST', path: '/v1/admin/webhooks/:id/deliveries/:delivery_id/retry' },
    auth: 'secret',
    customerToken: 'none',
    params: WebhookDeliveryPathSchema,
    response: WebhookDeliverySchema,
    summary: 'Retry a delivery',
    description:
      'Re-sends one delivery of this webhook now, whatever its status (pending, failed, succeeded or ' +
      'cancelled), and returns it with the new attempt. Counted like any attempt: `attempt` + 1 (also past ' +
      "the 5 automatic attempts), a failure adds 1 to the webhook's `consecutive_failures` (the 5th " +
      'deactivates it), a success resets them to 0; the delivery becomes `succeeded`, or `pending` with the ' +
      'next automatic retry while automatic attempts are left, else `failed`. A delivery of another webhook ' +
      '→ 404; a deactivated webhook → 409 `invalid_state_transition` (re-activate it first); a delivery a ' +
      'worker is sending at that moment → 409 `invalid_state_transition`.',
    tags,
    errors: ['not_found', 'invalid_state_transition'],
    run: async (s, c) => s.webhooks.retryDelivery(c.scope, c.params.id, c.params.delivery_id),
  }),
  defineOperation({
    name: 'webhooks.rotateSecret',
    http: { method: 'POST', path: '/v1/admin/webhooks/:id/rotate-secret' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    response: WebhookSchema,
    summary: "Rotate a webhook's secret",
    description:
      'Returns the webhook with its NEW `secret`, shown once (as on create). For 24 hours the previous secret ' +
      'keeps signing alongside it: `webhook-signature` carries two `v1,` signatures (new first), so receivers ' +
      'can switch without losing deliveries; `X-Webhook-Signature` is the hex HMAC with the new secret only, at ' +
      'once. Rotating again within 24 hours drops the oldest secret (only the current and one previous are ' +
      'kept). With an `Idempotency-Key`, a replay returns the same new secret.',
    tags,
    errors: ['not_found'],
    run: async (s, c) => s.webhooks.rotateSecret(c.scope, c.params.id),
  }),
  defineOperation({
    name: 'webhooks.test',
    http: { method: 'POST', path: '/v1/admin/webhooks/:id/test' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    input: WebhookTestSchema,
    response: WebhookTestResultSchema,
    summary: 'Send a test event',
    description:
      'Sends one signed sample event of `event_type` to the webhook now and reports whether the target ' +
      'answered 2xx, its status code and the response time. Signed like any delivery; its `webhook-id` is the ' +
      "sample event's own id. Does not count toward failures. Without `event_type` (no body, or `{}`), the " +
      'sample is of the webhook\'s first subscribed event type (`order.created` for `["*"]`).',
    tags,
    errors: ['not_found'],
    run: async (s, c) => s.webhooks.test(c.scope, c.params.id, c.input),
  }),
  defineOperation({
    name: 'webhooks.listNotifications',
    http: { method: 'GET', path: '/v1/admin/notifications' },
    auth: 'secret',
    customerToken: 'none',
    inputIn: 'query',
    input: ListQuerySchema,
    response: NotificationListSchema,
    summary: 'List dashboard notifications',
    description: 'Newest first; e.g. `webhook.deactivated` after 5 consecutive failed delivery attempts.',
    tags,
    run: async (s, c) => s.webhooks.listNotifications(c.scope, pageOf(c.input)),
  }),
] as const;
