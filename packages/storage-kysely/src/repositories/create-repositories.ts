import type { Repositories } from '@cartwright/core/storage';
import type { QueryRunner } from '../query/query-runner';
import { KyselyApiKeyRepository } from './api-key-repository';
import { KyselyApiLogRepository } from './api-log-repository';
import { KyselyCartRepository } from './cart-repository';
import { KyselyCategoryRepository } from './category-repository';
import { KyselyCollectionRepository } from './collection-repository';
import { KyselyCustomerRepository } from './customer-repository';
import { KyselyCustomerTokenRepository } from './customer-token-repository';
import { KyselyDashboardRepository } from './dashboard-repository';
import { KyselyDiscountRepository } from './discount-repository';
import { KyselyEventRepository } from './event-repository';
import { KyselyIdempotencyRepository } from './idempotency-repository';
import { KyselyInventoryRepository } from './inventory-repository';
import { KyselyLocaleRepository, KyselyTranslationRepository } from './locale-repository';
import {
  KyselyMemberRepository,
  KyselyMemberTokenRepository,
  KyselyStaffSessionRepository,
} from './member-repository';
import { KyselyNotificationRepository } from './notification-repository';
import { KyselyOrderRepository } from './order-repository';
import { KyselyOrganizationRepository } from './organization-repository';
import { KyselyPasswordResetRepository } from './password-reset-repository';
import { KyselyProductRepository } from './product-repository';
import { KyselyRateLimitRepository } from './rate-limit-repository';
import { KyselyRegionProductPriceRepository } from './region-product-price-repository';
import { KyselyRegionRepository } from './region-repository';
import { KyselyReturnRepository } from './return-repository';
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
    members: new KyselyMemberRepository(q),
    memberTokens: new KyselyMemberTokenRepository(q),
    staffSessions: new KyselyStaffSessionRepository(q),
    products: new KyselyProductRepository(q),
    inventory: new KyselyInventoryRepository(q),
    shippingMethods: new KyselyShippingMethodRepository(q),
    locales: new KyselyLocaleRepository(q),
    translations: new KyselyTranslationRepository(q),
    regions: new KyselyRegionRepository(q),
    collections: new KyselyCollectionRepository(q),
    categories: new KyselyCategoryRepository(q),
    discounts: new KyselyDiscountRepository(q),
    customers: new KyselyCustomerRepository(q),
    carts: new KyselyCartRepository(q),
    orders: new KyselyOrderRepository(q),
    idempotency: new KyselyIdempotencyRepository(q),
    events: new KyselyEventRepository(q),
    webhooks: new KyselyWebhookRepository(q),
    notifications: new KyselyNotificationRepository(q),
    rateLimits: new KyselyRateLimitRepository(q),
    returns: new KyselyReturnRepository(q),
    dashboard: new KyselyDashboardRepository(q),
    apiLogs: new KyselyApiLogRepository(q),
    regionProductPrices: new KyselyRegionProductPriceRepository(q),
  };
}
