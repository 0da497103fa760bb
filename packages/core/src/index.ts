export * from './errors';
export * from './inventory';
export * from './money';
export * from './ports';
export * from './pricing';
export * from './refunds';
export * from './state';
