import { createApiKeyCache } from './services/api-key-cache';
import { createApiKeyService } from './services/api-key-service';
import { createAuthService } from './services/auth-service';
import { createCartService } from './services/carts/cart-service';
import { createDiscountService } from './services/carts/discount-service';
import { createProductService } from './services/catalog/product-service';
import { createShippingMethodService } from './services/catalog/shipping-method-service';
import type { ServiceContext } from './services/context';
import { createCustomerAccountService } from './services/customers/customer-accounts';
import { createCustomerService } from './services/customers/customer-service';
import { createInventoryService } from './services/customers/inventory-service';
import { createIdempotencyService } from './services/idempotency-service';
import { createCheckoutService } from './services/orders/checkout-service';
import { createOrderService } from './services/orders/order-service';
import { createStoreService } from './services/store-service';
import { createWebhookService } from './services/webhooks/webhook-service';

/**
 * Every use case of the engine, built once per engine from the ports (scope-first methods that
 * take validated input and return wire objects). `createEngine` adds the composition around them;
 * `engine.forStore(scope)` binds a scope and validates inputs.
 */
export function createServices(ctx: ServiceContext) {
  const keyCache = createApiKeyCache(ctx.config.api_key_cache_ms);
  const services = {
    auth: createAuthService(ctx, keyCache),
    idempotency: createIdempotencyService(ctx),
    store: createStoreService(ctx),
    apiKeys: createApiKeyService(ctx, keyCache),
    products: createProductService(ctx),
    shippingMethods: createShippingMethodService(ctx),
    inventory: createInventoryService(ctx),
    customers: createCustomerService(ctx),
    accounts: createCustomerAccountService(ctx),
    discounts: createDiscountService(ctx),
    carts: createCartService(ctx),
    checkout: createCheckoutService(ctx),
    orders: createOrderService(ctx),
    webhooks: createWebhookService(ctx),
  };
  return { ...services, payments: services.orders.payments };
}

export type EngineServices = ReturnType<typeof createServices>;
