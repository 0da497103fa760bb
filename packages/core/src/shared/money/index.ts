export * from './allocate';
export * from './decimal';
export * from './money';
export * from './percentage';
export * from './rounding';
