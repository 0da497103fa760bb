/** The prefixes of docs/contract.md#ids, one per resource kind. */
export const ID_PREFIXES = [
  'org',
  'store',
  'prod',
  'var',
  'opt',
  'optval',
  'img',
  'inv',
  'cart',
  'item',
  'ord',
  'line',
  'pay',
  'ful',
  'ref',
  'disc',
  'cond',
  'cus',
  'addr',
  'ship',
  'wh',
  'evt',
  'whd',
  'key',
  'ntf',
  'cat',
  'col',
  'lcl',
  'tr',
  'ret',
  'retl',
  'mem',
  'log',
  'reg',
  'rprice',
  'rate',
  // internal records that never appear on the wire as resources of their own
  'ct',
  'idem',
  'att',
  'adj',
  'use',
  'prt',
  'mit',
  'sst',
] as const;

export type IdPrefix = (typeof ID_PREFIXES)[number];

/**
 * Makes prefixed, unguessable, time-sortable ids (`prod_01J…`): a 48-bit millisecond timestamp
 * followed by ≥ 128 bits of randomness, Crockford base32. Tests inject a deterministic one.
 */
export interface IdGenerator {
  next(prefix: IdPrefix): string;
}
