export * from './errors';
export * from './ports';
