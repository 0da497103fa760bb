export * from './commerce-error';
export * from './error-codes';
