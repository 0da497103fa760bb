import type { EngineServices as Engine } from '../engine-services';
import type { Scope } from '../ports/storage';
import type { StoreApi } from '../store-api';
import { apiKeysFacade, storeSettingsFacade, webhooksFacade } from './admin-facade';
import { inventoryFacade, productsFacade, shippingMethodsFacade } from './catalog-facade';
import { cartsFacade, checkoutFacade, discountsFacade, ordersFacade } from './commerce-facade';
import { customersFacade } from './customers-facade';
import type { CartActor } from './inputs';

export type { CartActor } from './inputs';

/** The actor of `t.store`: a secret key, as the admin API (docs/contract.md#keys-and-modes, #customer-tokens). */
export const SECRET_ACTOR: CartActor = { key_type: 'secret', customer_id: null };

/**
 * The engine's services with the scope (and, for carts and checkout, the actor) bound: every
 * method takes what the matching HTTP endpoint takes — path ids as arguments, the request body or
 * query as one object, validated by the same schemas with the same defaults and the same
 * `parameter_*` errors — and returns the same wire object. For example
 * `store.products.create({ name: 'Tee', status: 'active', variants: [{ price: 2500 }] })` is
 * `engine.products.create(scope, parsedBody)` and answers like `POST /v1/admin/products`.
 *
 * Admin methods do not check the key kind in process (the HTTP pipeline does, docs/contract.md#keys-and-modes);
 * the actor decides only what carts and checkouts may touch (docs/contract.md#cart-ownership).
 */
export function createStoreFacade(engine: Engine, scope: Scope, actor: CartActor = SECRET_ACTOR): StoreApi {
  return {
    scope,
    actor,
    settings: storeSettingsFacade(engine, scope),
    products: productsFacade(engine, scope),
    shippingMethods: shippingMethodsFacade(engine, scope),
    inventory: inventoryFacade(engine, scope),
    customers: customersFacade(engine, scope),
    discounts: discountsFacade(engine, scope),
    carts: cartsFacade(engine, scope, actor),
    checkout: checkoutFacade(engine, scope, actor),
    orders: ordersFacade(engine, scope),
    apiKeys: apiKeysFacade(engine, scope),
    webhooks: webhooksFacade(engine, scope),
  };
}

/** The scope-bound facade `t.store` (see {@link createStoreFacade}). */
export type StoreFacade = StoreApi;
