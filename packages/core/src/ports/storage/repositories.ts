// The repositories of the storage port, one file per aggregate group (the contract: README.md).
export type * from './carts';
export type * from './catalog';
export type * from './categories';
export type * from './collections';
export type * from './conventions';
export type * from './customers';
export type * from './dashboard';
export type * from './discounts';
export type * from './events-webhooks';
export type * from './idempotency';
export type * from './inventory';
export type * from './locales';
export type * from './members';
export type * from './orders';
export type * from './organization';
export type * from './rate-limits';
export type * from './returns';
