import { operations } from '@cartwright/core/operations';
import type { AnyRoute } from '../route';
import { staffSessionRoutes } from '../staff-session';
import { routeOf } from './operation-routes';
import { paymentsRoutes } from './payments';
import { systemRoutes } from './system';

const isWebhookOperation = (operation: { name: string }) => operation.name.startsWith('webhooks.');

/**
 * Every route of the API: the system routes (OpenAPI document, reference, health), one route per
 * operation of core's table in its order, and the payment providers' webhooks — placed before
 * the webhook subscriptions, where the OpenAPI document has always listed them.
 */
export const apiRoutes: readonly AnyRoute[] = [
  ...systemRoutes,
  ...staffSessionRoutes,
  ...operations.filter((operation) => !isWebhookOperation(operation)).map(routeOf),
  ...paymentsRoutes,
  ...operations.filter(isWebhookOperation).map(routeOf),
];
