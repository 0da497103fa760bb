export * from './currencies';
export * from './exchange-rate';
export * from './region-catalog';
export * from './region-price';
