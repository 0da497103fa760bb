export type * from './pagination';
export type * from './records';
export type * from './repositories';
export type * from './scope';
export type * from './storage';
export type * from './storefront-read-model';
