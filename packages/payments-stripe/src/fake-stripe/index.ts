export { FAKE_API_VERSION } from './fake-stripe-ledger';
export { type FakeStripe, type FakeStripeOptions, startFakeStripe } from './fake-stripe-server';
export type {
  FakeCharge,
  FakeErrorBody,
  FakeEvent,
  FakeIntentStatus,
  FakeNextAction,
  FakePaymentError,
  FakePaymentIntent,
  FakeRefund,
  FakeRefundStatus,
  NetworkFailureMode,
  RecordedRequest,
  RequestOutcome,
} from './fake-stripe-types';
export { type FormObject, type FormValue, parseForm } from './form-encoding';
export { TEST_PAYMENT_METHODS, type TestCardBehaviour, type TestPaymentMethod } from './test-payment-methods';
export { signWebhook, signWithStripeLibrary } from './webhook-signature';
