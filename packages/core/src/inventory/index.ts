export * from './availability';
export * from './inventory-levels';
export * from './movements';
export * from './thresholds';
