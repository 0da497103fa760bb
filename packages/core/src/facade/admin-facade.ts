import type { EngineServices as Engine } from '../engine-services';
import type { Scope } from '../ports/storage';
import {
  ApiKeyCreateSchema,
  ListQuerySchema,
  OrganizationUpdateSchema,
  StoreUpdateSchema,
  WebhookCreateSchema,
  WebhookTestSchema,
  WebhookUpdateSchema,
} from '../schemas';
import { body, type In, pageOf, query } from './inputs';

/** Store and organization settings (shared by both modes). */
export function storeSettingsFacade(engine: Engine, scope: Scope) {
  return {
    get: async () => engine.store.get(scope),
    /** `currency`, `tax_rate` (a percentage: 20 means 20 %), `prices_include_tax`, … */
    update: async (input: In<typeof StoreUpdateSchema>) =>
      engine.store.update(scope, body(StoreUpdateSchema, input)),
    getOrganization: async () => engine.store.getOrganization(scope),
    updateOrganization: async (input: In<typeof OrganizationUpdateSchema>) =>
      engine.store.updateOrganization(scope, body(OrganizationUpdateSchema, input)),
  };
}

/** API keys of the scope's mode. */
export function apiKeysFacade(engine: Engine, scope: Scope) {
  return {
    create: async (input: In<typeof ApiKeyCreateSchema>) =>
      engine.apiKeys.create(scope, body(ApiKeyCreateSchema, input)),
    list: async (q: In<typeof ListQuerySchema> = {}) =>
      engine.apiKeys.list(scope, pageOf(query(ListQuerySchema, q))),
    get: async (id: string) => engine.apiKeys.get(scope, id),
    delete: async (id: string) => engine.apiKeys.delete(scope, id),
    rotate: async (id: string) => engine.apiKeys.rotate(scope, id),
  };
}

/** Webhooks of the scope's mode, their deliveries, and the notifications list. */
export function webhooksFacade(engine: Engine, scope: Scope) {
  const webhooks = engine.webhooks;
  return {
    create: async (input: In<typeof WebhookCreateSchema>) =>
      webhooks.create(scope, body(WebhookCreateSchema, input)),
    list: async (q: In<typeof ListQuerySchema> = {}) =>
      webhooks.list(scope, pageOf(query(ListQuerySchema, q))),
    get: async (id: string) => webhooks.get(scope, id),
    update: async (id: string, input: In<typeof WebhookUpdateSchema>) =>
      webhooks.update(scope, id, body(WebhookUpdateSchema, input)),
    delete: async (id: string) => webhooks.delete(scope, id),
    listDeliveries: async (
      id: string,
      q: In<typeof ListQuerySchema> = {},
    ): ReturnType<Engine['webhooks']['listDeliveries']> =>
      webhooks.listDeliveries(scope, id, pageOf(query(ListQuerySchema, q))),
    test: async (id: string, input: In<typeof WebhookTestSchema>) =>
      webhooks.test(scope, id, body(WebhookTestSchema, input)),
    listNotifications: async (q: In<typeof ListQuerySchema> = {}) =>
      webhooks.listNotifications(scope, pageOf(query(ListQuerySchema, q))),
  };
}
