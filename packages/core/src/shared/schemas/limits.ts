import { CommerceError } from '../errors';

/*
 * The sizes every input must keep (docs/contract.md#input-limits), in one place. The zod schemas of this
 * folder use these constants, so the limits are enforced by `parseInput` (the engine's and the
 * HTTP API's one validator, before any query runs) and appear in the OpenAPI document
 * (`maxLength`, `maximum`, `maxItems`, `maxProperties`).
 *
 * Why these numbers: every value must fit the column that stores it on every supported engine
 * (SQLite stores 64-bit integers and any text; PostgreSQL stores `integer` as int4, refuses NUL
 * and unpaired surrogates in text and jsonb, and refuses b-tree index entries over ~2,700 bytes),
 * and every total the engine computes from stored values must stay a safe JavaScript integer.
 */

// ---------------------------------------------------------------- integers

/** The largest value of a PostgreSQL `integer` (int4) column: quantities, counts, positions. */
export const INT4_MAX = 2_147_483_647;
/** The smallest value of a PostgreSQL `integer` (int4) column. */
export const INT4_MIN = -2_147_483_648;

/** Stock counts (`on_hand`, `safety_stock`) and other counts stored as int4. */
export const MAX_COUNT = INT4_MAX;

/**
 * The largest quantity of one cart line, order line, fulfillment line or refund line. With
 * {@link MAX_AMOUNT} and {@link MAX_CART_LINES} it bounds every cart and order total (see
 * {@link WORST_CASE_TOTAL}).
 */
export const MAX_QUANTITY = 10_000;

/**
 * The largest money amount in a request, in minor units: prices (variant `price`,
 * `compare_at_price`, `cost_price`, shipping `price`), thresholds, minimum and maximum amounts,
 * fixed discount values, and payment and refund amounts (decisions §15: money in any request;
 * what a refund may take back is a business rule besides). 999,999,999 is $9,999,999.99 or
 * ¥999,999,999.
 */
export const MAX_AMOUNT = 999_999_999;

/** The largest tax rate, a percentage (docs/contract.md#money: `20` is 20 %). */
export const MAX_TAX_RATE = 100;

/** The largest variant weight, in grams (1,000 tonnes). */
export const MAX_WEIGHT = 1_000_000_000;

/** The largest variant `width`, `height` or `depth` (decisions §22; in the merchant's unit). */
export const MAX_DIMENSION = 1_000_000_000;

/** The most lines one cart (and so one order) holds (docs/contract.md#input-limits). */
export const MAX_CART_LINES = 250;

/**
 * The largest total any cart or order can reach from inputs within these limits, and why it is
 * below 2^53 − 1 (`Number.MAX_SAFE_INTEGER`), so that pricing a stored cart never fails — even
 * after the store's tax rate or a variant's price changes:
 *
 *   line subtotal     ≤ MAX_AMOUNT × MAX_QUANTITY                   = 9,999,999,990,000
 *   cart subtotal     ≤ MAX_CART_LINES × line subtotal               = 2,499,999,997,500,000
 *   shipping          ≤ MAX_AMOUNT                                   =           999,999,999
 *   discounts         only subtract (never below 0)
 *   tax (exclusive)   ≤ (subtotal + shipping) × MAX_TAX_RATE / 100 (each part rounded half up,
 *                       so ≤ the part itself at 100 %)
 *   total             ≤ 2 × (cart subtotal + shipping)               = 5,000,001,994,999,998
 *   Number.MAX_SAFE_INTEGER                                          = 9,007,199,254,740,991
 *
 * a margin of 1.8×. Every intermediate sum (subtotal, discount_total, tax_total, total) is at
 * most the total.
 *
 * `total_quantity` ≤ MAX_CART_LINES × MAX_QUANTITY = 2,500,000 (fits int4 too).
 * (Tax included in prices is contained in the total, never added.)
 */
export const WORST_CASE_TOTAL = 2 * (MAX_CART_LINES * MAX_AMOUNT * MAX_QUANTITY + MAX_AMOUNT);

// ---------------------------------------------------------------- strings

/**
 * Identifiers and codes: ids, `session_id`, SKUs, barcodes, discount codes, slugs, tags, e-mail
 * addresses, external ids, option names and values, provider labels. 255 UTF-16 units are at most
 * 765 UTF-8 bytes, well inside a PostgreSQL b-tree entry (~2,700 bytes) even with the other
 * columns of a composite index.
 */
export const MAX_IDENTIFIER_LENGTH = 255;

/**
 * The `Idempotency-Key` header (docs/contract.md#idempotency): at most as long as an identifier, as at Stripe.
 * The HTTP pipeline refuses a longer key (400 `parameter_invalid`) and the OpenAPI document
 * states it.
 */
export const MAX_IDEMPOTENCY_KEY_LENGTH = MAX_IDENTIFIER_LENGTH;

/** Names and other one-line free strings: product, customer and address fields, carriers. */
export const MAX_NAME_LENGTH = 255;

/** Long free text: descriptions, notes, reasons (not indexed). */
export const MAX_TEXT_LENGTH = 10_000;

/** URLs: image URLs, tracking URLs, webhook endpoints. */
export const MAX_URL_LENGTH = 2_048;

/** Search text in a query (`q`): longer text cannot match a name, an e-mail or a number. */
export const MAX_SEARCH_LENGTH = MAX_NAME_LENGTH;

/**
 * The most entries of any other list in a request (variants, images, options and their values,
 * tags, ids, conditions and their values, webhook events, fulfillment and refund lines).
 */
export const MAX_LIST_ITEMS = 250;

// ---------------------------------------------------------------- metadata

/** `metadata` (and product `attributes`): at most 50 keys (docs/contract.md#input-limits, as at Stripe). */
export const MAX_METADATA_KEYS = 50;
/** A metadata key: at most 40 characters. */
export const MAX_METADATA_KEY_LENGTH = 40;
/** A string anywhere in a metadata value: at most 500 characters. */
export const MAX_METADATA_VALUE_LENGTH = 500;
/** How deep metadata values may nest (objects and arrays). */
export const MAX_METADATA_DEPTH = 16;

// ---------------------------------------------------------------- text no engine stores

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Whether `text` is well-formed UTF-16 (no unpaired surrogate): `String.prototype.isWellFormed`
 * (ES2024, Node ≥ 20), ~100× faster than a regular expression over the surrogate range.
 */
const isWellFormed: (text: string) => boolean =
  typeof (String.prototype as { isWellFormed?: unknown }).isWellFormed === 'function'
    ? (text) => (text as unknown as { isWellFormed(): boolean }).isWellFormed()
    : (text) => !UNPAIRED_SURROGATE.test(text);

const UNSTORABLE_CHARACTERS = new RegExp(`\u0000|${UNPAIRED_SURROGATE.source}`, 'g');

/** Why a string cannot be stored by every engine. */
export type UnstorableReason = 'nul' | 'unpaired_surrogate';

/**
 * Why `text` cannot be stored by every supported engine, or null when it can: a NUL character
 * (PostgreSQL text and jsonb refuse U+0000) or an unpaired UTF-16 surrogate (not Unicode text: it
 * has no UTF-8 form, jsonb refuses its `\uD800` escape, and drivers would silently replace it).
 */
export function unstorableReason(text: string): UnstorableReason | null {
  if (text.includes('\u0000')) return 'nul';
  return isWellFormed(text) ? null : 'unpaired_surrogate';
}

/** Whether every supported engine can store `text` as it is. */
export function isStorableText(text: string): boolean {
  return unstorableReason(text) === null;
}

/** Where an unstorable string was found in an input, and why. */
export interface UnstorableText {
  /** Path to the string; for a key, the path to the key itself. */
  path: PropertyKey[];
  /** Whether the key (its name), rather than the value, holds the character. */
  inKey: boolean;
  reason: UnstorableReason;
}

/** Nesting beyond this is not walked (zod refuses such input elsewhere; JSON bodies are ≤ 1 MiB). */
const MAX_WALK_DEPTH = 64;
/**
 * Values visited at most per input: far more than a 1 MiB JSON body holds, so only a cyclic
 * programmatic input (which a schema refuses anyway) can stop the walk early.
 */
const MAX_WALK_NODES = 4_000_000;

/**
 * The first string of `value` — a string itself, or any string or key inside arrays and objects,
 * at any depth — that no engine can store, or null. Own keys are read as `Object.keys` lists them,
 * so a JSON `__proto__` key is checked like any other. A first pass without allocations answers
 * the common case (nothing found); only a hit pays for the walk that records the path.
 */
export function findUnstorableText(value: unknown): UnstorableText | null {
  const budget = { nodes: MAX_WALK_NODES };
  if (!holdsUnstorable(value, 0, budget)) return null;
  return locate(value, [], 0);
}

function holdsUnstorable(value: unknown, depth: number, budget: { nodes: number }): boolean {
  if (typeof value === 'string') return unstorableReason(value) !== null;
  if (typeof value !== 'object' || value === null || depth > MAX_WALK_DEPTH) return false;
  if (--budget.nodes < 0) return false;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      if (holdsUnstorable(value[index], depth + 1, budget)) return true;
    }
    return false;
  }
  if (!holdsData(value)) return false;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (unstorableReason(key) !== null) return true;
    if (holdsUnstorable(record[key], depth + 1, budget)) return true;
  }
  return false;
}

/**
 * Walks strings, arrays and objects whose own enumerable keys hold data: plain objects, and
 * objects without `Object.prototype` in their chain (a router's params are such). Instances of
 * classes (Date, Map, …) are left to the schema. Runs only after {@link holdsUnstorable} found a
 * hit, which it finds again in the same order.
 */
function locate(value: unknown, path: PropertyKey[], depth: number): UnstorableText | null {
  if (typeof value === 'string') {
    const reason = unstorableReason(value);
    return reason === null ? null : { path: [...path], inKey: false, reason };
  }
  if (typeof value !== 'object' || value === null || depth > MAX_WALK_DEPTH) return null;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      path.push(index);
      const found = locate(value[index], path, depth + 1);
      path.pop();
      if (found !== null) return found;
    }
    return null;
  }
  if (!holdsData(value)) return null;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    path.push(key);
    const reason = unstorableReason(key);
    if (reason !== null) return { path: [...path], inKey: true, reason };
    const found = locate(record[key], path, depth + 1);
    path.pop();
    if (found !== null) return found;
  }
  return null;
}

/** A plain object, or one whose prototype chain does not reach `Object.prototype` (no class). */
function holdsData(value: object): boolean {
  let proto = Object.getPrototypeOf(value);
  if (proto === Object.prototype) return true;
  while (proto !== null) {
    if (proto === Object.prototype) return false;
    proto = Object.getPrototypeOf(proto);
  }
  return true;
}

/** `text` with NULs and unpaired surrogates replaced by U+FFFD, for echoing it in a message. */
export function printable(text: string, maxLength = 80): string {
  const cut = text.length > maxLength ? `${text.slice(0, maxLength)}…` : text;
  return unstorableReason(cut) === null ? cut : cut.replace(UNSTORABLE_CHARACTERS, '\uFFFD');
}

/** The predicate of the error message for an unstorable string. */
export function unstorableMessage(reason: UnstorableReason, inKey: boolean): string {
  const what = reason === 'nul' ? 'a NUL character (U+0000)' : 'an unpaired UTF-16 surrogate';
  return inKey ? `must not have a key containing ${what}` : `must not contain ${what}`;
}

// ---------------------------------------------------------------- carts

/**
 * Checks a cart's lines against {@link MAX_CART_LINES} and {@link MAX_QUANTITY} after a change
 * (items added, quantities summed, carts merged), so that no stored cart can outgrow the limits
 * its total is bounded by. `param` names the field of the request that grew it.
 *
 * @throws CommerceError 400 `parameter_invalid`
 */
export function assertCartLimits(
  lines: readonly { quantity: number }[],
  param: { lines: string; quantity: string } = { lines: 'items', quantity: 'quantity' },
): void {
  if (lines.length > MAX_CART_LINES) {
    throw new CommerceError(
      'parameter_invalid',
      `A cart holds at most ${MAX_CART_LINES} lines; this change would make ${lines.length}`,
      { param: param.lines },
    );
  }
  for (const line of lines) {
    if (line.quantity > MAX_QUANTITY) {
      throw new CommerceError(
        'parameter_invalid',
        `${param.quantity} must be at most ${MAX_QUANTITY} per line (this change would make ${line.quantity})`,
        { param: param.quantity },
      );
    }
  }
}
