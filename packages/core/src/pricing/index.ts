export * from './discounts';
export * from './price-cart';
export * from './price-cart-types';
export * from './tax';
