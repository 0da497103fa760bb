import type { AnyRoute } from '../route';
import { cartsRoutes } from './carts';
import { catalogRoutes } from './catalog';
import { customerAuthRoutes } from './customer-auth';
import { customersRoutes } from './customers';
import { discountsRoutes } from './discounts';
import { inventoryRoutes } from './inventory';
import { ordersRoutes } from './orders';
import { paymentsRoutes } from './payments';
import { storeRoutes } from './store';
import { systemRoutes } from './system';
import { webhooksRoutes } from './webhooks';

/** Every `/v1` route of the API, in one list (the router and the OpenAPI document use it). */
export const apiRoutes: readonly AnyRoute[] = [
  ...systemRoutes,
  ...storeRoutes,
  ...catalogRoutes,
  ...inventoryRoutes,
  ...customersRoutes,
  ...customerAuthRoutes,
  ...discountsRoutes,
  ...cartsRoutes,
  ...ordersRoutes,
  ...paymentsRoutes,
  ...webhooksRoutes,
];
