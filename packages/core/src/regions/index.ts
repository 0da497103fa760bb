export * from './currencies';
export * from './exchange-rate';
export * from './region-price';
