import { createCartService } from './carts/cart-service';
import { createProductService } from './catalog/product-service';
import { createShippingMethodService } from './catalog/shipping-method-service';
import { createCategoryService } from './categories/category-service';
import { createCheckoutService } from './checkout/checkout-service';
import { createCollectionService } from './collections/collection-service';
import { createCustomerAccountService } from './customers/customer-accounts';
import { createCustomerService } from './customers/customer-service';
import { createApiLogService } from './dashboard/api-log-service';
import { createDashboardService } from './dashboard/dashboard-service';
import { createDiscountService } from './discounts/discount-service';
import { createInventoryService } from './inventory/inventory-service';
import { createLocaleService } from './locales/locale-service';
import { createMemberService } from './members/member-service';
import { createOrderService } from './orders/order-service';
import { createOrderTracking } from './orders/order-tracking';
import { createPaymentService } from './reconciliation/payment-service';
import { createRegionService } from './regions/region-service';
import { createReturnService } from './returns/return-service';
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
    categories: createCategoryService(ctx),
    collections: createCollectionService(ctx),
    inventory: createInventoryService(ctx),
    locales: createLocaleService(ctx),
    regions: createRegionService(ctx),
    customers: createCustomerService(ctx),
    accounts: createCustomerAccountService(ctx),
    discounts: createDiscountService(ctx),
    carts: createCartService(ctx),
    checkout: createCheckoutService(ctx),
    orders: { ...createOrderService(ctx), payments: createPaymentService(ctx) },
    tracking: createOrderTracking(ctx),
    webhooks: createWebhookService(ctx),
    returns: createReturnService(ctx),
    dashboard: createDashboardService(ctx),
    apiLogs: createApiLogService(ctx),
    members: createMemberService(ctx),
  };
  return { ...services, payments: services.orders.payments };
}

export type EngineServices = ReturnType<typeof createServices>;
