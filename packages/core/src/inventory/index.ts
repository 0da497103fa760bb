export * from './availability';
export * from './inventory-levels';
export * from './inventory-plan';
export * from './inventory-writes';
export * from './movements';
export * from './thresholds';
