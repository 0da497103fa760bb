/**
 * `@cartwright/core/providers`: the ports an application may implement or replace when it creates
 * the engine — payment providers (`payments`), the webhook transport (`webhookTransport`), the
 * clock, id generator and crypto — and the built-in implementations.
 */
export { manualPaymentProvider } from './engine';
export { type Clock, systemClock } from './ports/clock';
export { type CryptoPort, defaultScrypt, type ScryptParams, webCrypto } from './ports/crypto';
export type { IdGenerator, IdPrefix } from './ports/id-generator';
export type * from './ports/payment-provider';
export { createRandomIdGenerator, createSequentialIdGenerator } from './ports/random-id-generator';
export type * from './ports/webhook-transport';
export { CommerceError, type ErrorCode } from './shared/errors';
