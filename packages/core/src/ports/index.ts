export * from './clock';
export * from './crypto';
export type * from './event-sink';
export * from './id-generator';
export type * from './payment-provider';
export * from './random-id-generator';
export type * from './storage';
export type * from './webhook-transport';
