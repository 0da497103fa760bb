import {
  DeletedResponseSchema,
  IdPathSchema,
  ListQuerySchema,
  NotificationListSchema,
  WebhookCreateSchema,
  WebhookDeliveryListSchema,
  WebhookListSchema,
  WebhookSchema,
  WebhookTestResultSchema,
  WebhookTestSchema,
  WebhookUpdateSchema,
} from '@cartwright/core';
import { type AnyRoute, defineRoute } from '../route';
import { pageOf, scopeOf } from './scope';

const tags = ['Webhooks'];

/** Webhooks, their deliveries, test deliveries and dashboard notifications (spec "Events", decisions §14). */
export const webhooksRoutes: AnyRoute[] = [
  defineRoute({
    method: 'POST',
    path: '/v1/admin/webhooks',
    auth: 'secret',
    customerToken: 'none',
    body: WebhookCreateSchema,
    response: WebhookSchema,
    summary: 'Create a webhook',
    description:
      'The response is the only one that shows the `secret` (`whsec_…`) used to sign deliveries. `events` are ' +
      'event types or `["*"]`. Unless private targets are allowed, a URL that is or resolves to a loopback, ' +
      'private, link-local or metadata address is refused (422 `url_not_allowed`).',
    tags,
    errors: ['url_not_allowed'],
    handler: (ctx) => ctx.engine.webhooks.create(scopeOf(ctx.auth), ctx.body),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/admin/webhooks',
    auth: 'secret',
    customerToken: 'none',
    query: ListQuerySchema,
    response: WebhookListSchema,
    summary: 'List webhooks',
    tags,
    handler: (ctx) => ctx.engine.webhooks.list(scopeOf(ctx.auth), pageOf(ctx.query)),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/admin/webhooks/:id',
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    response: WebhookSchema,
    summary: 'Retrieve a webhook',
    tags,
    errors: ['not_found'],
    handler: (ctx) => ctx.engine.webhooks.get(scopeOf(ctx.auth), ctx.params.id),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v1/admin/webhooks/:id',
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    body: WebhookUpdateSchema,
    response: WebhookSchema,
    summary: 'Update a webhook',
    description:
      'Changes `url`, `events`, `is_active` or `metadata`. Re-activating (`is_active: true`) resets ' +
      '`consecutive_failures` to 0; deactivating cancels pending deliveries.',
    tags,
    errors: ['not_found', 'url_not_allowed'],
    handler: (ctx) => ctx.engine.webhooks.update(scopeOf(ctx.auth), ctx.params.id, ctx.body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/admin/webhooks/:id',
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    response: DeletedResponseSchema,
    summary: 'Delete a webhook',
    tags,
    errors: ['not_found'],
    handler: (ctx) => ctx.engine.webhooks.delete(scopeOf(ctx.auth), ctx.params.id),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/admin/webhooks/:id/deliveries',
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    query: ListQuerySchema,
    response: WebhookDeliveryListSchema,
    summary: "List a webhook's deliveries",
    description:
      'Newest first. Each delivery shows its status, the number of attempts, the latest status code, duration ' +
      'and error, the next retry time, and its `attempts`.',
    tags,
    errors: ['not_found'],
    handler: (ctx) => ctx.engine.webhooks.listDeliveries(scopeOf(ctx.auth), ctx.params.id, pageOf(ctx.query)),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/admin/webhooks/:id/test',
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    body: WebhookTestSchema,
    response: WebhookTestResultSchema,
    summary: 'Send a test event',
    description:
      'Sends one signed sample event of `event_type` to the webhook now and reports whether the target ' +
      'answered 2xx, its status code and the response time. Does not count toward failures.',
    tags,
    errors: ['not_found'],
    handler: (ctx) => ctx.engine.webhooks.test(scopeOf(ctx.auth), ctx.params.id, ctx.body),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/admin/notifications',
    auth: 'secret',
    customerToken: 'none',
    query: ListQuerySchema,
    response: NotificationListSchema,
    summary: 'List dashboard notifications',
    description: 'Newest first; e.g. `webhook.deactivated` after 5 consecutive failed delivery attempts.',
    tags,
    handler: (ctx) => ctx.engine.webhooks.listNotifications(scopeOf(ctx.auth), pageOf(ctx.query)),
  }),
];
