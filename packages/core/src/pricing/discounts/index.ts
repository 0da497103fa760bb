export * from './discount-amounts';
export * from './discount-conditions';
export * from './discount-definition';
export * from './discount-eligibility';
export * from './discount-order';
