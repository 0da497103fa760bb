import { createCartService } from './carts/cart-service';
import { createProductService } from './catalog/product-service';
import { createShippingMethodService } from './catalog/shipping-method-service';
import { createCheckoutService } from './checkout/checkout-service';
import { createCustomerAccountService } from './customers/customer-accounts';
import { createCustomerService } from './customers/customer-service';
import { createDiscountService } from './discounts/discount-service';
import { createInventoryService } from './inventory/inventory-service';
import { createOrderService } from './orders/order-service';
import { createPaymentService } from './reconciliation/payment-service';
import type { ServiceContext } from './shared/context';
import { createIdempotencyService } from './shared/idempotency-service';
import { createApiKeyCache } from './store/api-key-cache';
import { createApiKeyService } from './store/api-key-service';
import { createAuthService } from './store/auth-service';
import { createStoreService } from './store/store-service';
import { createWebhookService } from './webhooks/webhook-service';

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
    orders: { ...createOrderService(ctx), payments: createPaymentService(ctx) },
    webhooks: createWebhookService(ctx),
  };
  return { ...services, payments: services.orders.payments };
}

export type EngineServices = ReturnType<typeof createServices>;
