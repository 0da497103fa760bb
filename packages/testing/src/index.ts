export type { CartActor, In } from '@cartwright/core';
export {
  type CapturedDelivery,
  type CaptureResponder,
  type CaptureTransport,
  createCaptureTransport,
} from './capture-transport';
export {
  createTestEngine,
  TEST_EMAIL,
  type TestCheckoutInput,
  type TestEngine,
  type TestEngineOptions,
} from './create-test-engine';
export { type Duration, parseDuration } from './duration';
export { type EventRecorder, type RecordedEvent, recordEvents } from './event-recorder';
export { createFakeClock, DEFAULT_TEST_TIME, type FakeClock, type TimeInput, toEpochMs } from './fake-clock';
export {
  createFakePaymentProvider,
  FAKE_CARD_PROVIDER_NAME,
  type FakeCharge,
  type FakePaymentOutcome,
  type FakePaymentProvider,
  type FakePaymentProviderOptions,
  type FakeRefund,
  TEST_CARD_OUTCOMES,
} from './fake-payment-provider';
export {
  type CartFixtureItem,
  type CartFixtureOptions,
  createFixtures,
  type Fixtures,
  type ProductFixtureInput,
  TEST_ADDRESS,
} from './fixtures';
export { openMemoryStorage, type SchemaStrategy } from './memory-storage';
export { createSeededCrypto } from './seeded-crypto';
