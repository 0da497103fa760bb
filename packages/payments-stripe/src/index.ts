export { type PaymentIntentLike, paymentIntentToResult } from './payment-intent-result';
export { failureCode, isStripeError, toCommerceError } from './stripe-errors';
export {
  createStripeClient,
  STRIPE_PROVIDER_NAME,
  type StripeProviderOptions,
  stripeProvider,
} from './stripe-provider';
export {
  type ParseStripeWebhookOptions,
  parseStripeWebhook,
  type StripeWebhookAction,
  type StripeWebhookResult,
  webhookResult,
} from './stripe-webhooks';
