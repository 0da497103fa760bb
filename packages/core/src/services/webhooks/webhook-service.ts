import type { ServiceContext } from '../context';

/** Placeholder: filled in by its area's implementation. */
export function createWebhookService(_ctx: ServiceContext) {
  return {};
}

export type WebhookService = ReturnType<typeof createWebhookService>;
