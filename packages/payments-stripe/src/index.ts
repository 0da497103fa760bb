export { type PaymentIntentLike, paymentIntentToResult } from './payment-intent-result';
export { failureCode, isStripeError, toCommerceError } from './stripe-errors';
export {
  createStripeClient,
  refundMetadata,
  refundToResult,
  STRIPE_PROVIDER_NAME,
  type StripeProviderOptions,
  stripeProvider,
} from './stripe-provider';
export {
  type ParseStripeWebhookOptions,
  parseStripeWebhook,
  refundStatusOf,
  type StripeWebhookAction,
  type StripeWebhookResult,
  webhookResult,
} from './stripe-webhooks';
