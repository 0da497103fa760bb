export * from './compute-refund';
export * from './line-refund-amount';
export * from './restock-fulfillments';
export * from './restock-split';
