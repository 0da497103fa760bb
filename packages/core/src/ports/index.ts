export * from './clock';
export * from './id-generator';
