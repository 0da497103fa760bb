import type { Repositories } from '@cartwright/core/storage';
import type { QueryRunner } from '../query/query-runner';
import { KyselyApiKeyRepository } from './api-key-repository';
import { KyselyCartRepository } from './cart-repository';
import { KyselyCustomerRepository } from './customer-repository';
import { KyselyCustomerTokenRepository } from './customer-token-repository';
import { KyselyDiscountRepository } from './discount-repository';
import { KyselyEventRepository } from './event-repository';
import { KyselyIdempotencyRepository } from './idempotency-repository';
import { KyselyInventoryRepository } from './inventory-repository';
import { KyselyNotificationRepository } from './notification-repository';
import { KyselyOrderRepository } from './order-repository';
import { KyselyOrganizationRepository } from './organization-repository';
import { KyselyPasswordResetRepository } from './password-reset-repository';
import { KyselyProductRepository } from './product-repository';
import { KyselyRateLimitRepository } from './rate-limit-repository';
import { KyselyShippingMethodRepository } from './shipping-method-repository';
import { KyselyStoreRepository } from './store-repository';
import { KyselyWebhookRepository } from './webhook-repository';

/** Every repository bound to one executor (a transaction, or the pool/connection for reads). */
export function createRepositories(q: QueryRunner): Repositories {
  return {
    organizations: new KyselyOrganizationRepository(q),
    stores: new KyselyStoreRepository(q),
    apiKeys: new KyselyApiKeyRepository(q),
    customerTokens: new KyselyCustomerTokenRepository(q),
    passwordResets: new KyselyPasswordResetRepository(q),
    products: new KyselyProductRepository(q),
    inventory: new KyselyInventoryRepository(q),
    shippingMethods: new KyselyShippingMethodRepository(q),
    discounts: new KyselyDiscountRepository(q),
    customers: new KyselyCustomerRepository(q),
    carts: new KyselyCartRepository(q),
    orders: new KyselyOrderRepository(q),
    idempotency: new KyselyIdempotencyRepository(q),
    events: new KyselyEventRepository(q),
    webhooks: new KyselyWebhookRepository(q),
    notifications: new KyselyNotificationRepository(q),
    rateLimits: new KyselyRateLimitRepository(q),
  };
}
