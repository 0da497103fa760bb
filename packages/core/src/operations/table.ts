import { cartsOperations } from './carts';
import { catalogOperations } from './catalog';
import { categoriesOperations } from './categories';
import { collectionsOperations } from './collections';
import { customerAuthOperations } from './customer-auth';
import { customersOperations } from './customers';
import { dashboardOperations } from './dashboard';
import { discountsOperations } from './discounts';
import type { ApiOf } from './front-door';
import { inventoryOperations } from './inventory';
import { localesOperations } from './locales';
import { membersOperations } from './members';
import { ordersOperations } from './orders';
import { regionsOperations } from './regions';
import { returnsOperations } from './returns';
import { storeOperations } from './store';
import { trackingOperations } from './tracking';
import { webhooksOperations } from './webhooks';

/**
 * Every operation of the API, each declared once (see `defineOperation`): the HTTP router, the
 * in-process API (`engine.forStore(scope)`) and the OpenAPI document are derived from this table,
 * in this order.
 */
export const operations = [
  ...storeOperations,
  ...catalogOperations,
  ...categoriesOperations,
  ...collectionsOperations,
  ...inventoryOperations,
  ...localesOperations,
  ...regionsOperations,
  ...customersOperations,
  ...customerAuthOperations,
  ...discountsOperations,
  ...cartsOperations,
  ...ordersOperations,
  ...returnsOperations,
  ...trackingOperations,
  ...webhooksOperations,
  ...dashboardOperations,
  ...membersOperations,
] as const;

/** The table's type. */
export type Operations = typeof operations;

/**
 * The API of one store and mode, `engine.forStore(scope, actor?)`: one method per operation of
 * the table. `products.create` is `POST /v1/admin/products`: each method takes what its endpoint
 * takes — path parameters as leading strings, then the request body or list query as one object,
 * validated by the same schema with the same defaults and `parameter_*` errors — and answers the
 * same wire object. Carts and checkout act as `actor` (a secret key unless given).
 */
export type StoreApi = ApiOf<Operations> & {
  readonly scope: import('../ports/storage').Scope;
  readonly actor: import('../carts/cart-access').CartActor;
};
