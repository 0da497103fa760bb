/** Test or live data (docs/contract.md#keys-and-modes): a key of one mode never sees the other mode's data. */
export type Mode = 'test' | 'live';

/**
 * The partition every scoped row belongs to: one store, one mode. Every repository method on
 * scoped data takes a Scope and never returns rows of another scope — an id of another store or
 * mode behaves exactly like an unknown id (docs/contract.md#errors: 404).
 */
export interface Scope {
  store_id: string;
  mode: Mode;
}

/** Epoch milliseconds. Records keep time as numbers; services format ISO 8601 on the wire. */
export type Millis = number;

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
