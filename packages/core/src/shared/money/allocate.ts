import { divideSmall, EXACT_NUMBER_LIMIT, toBigInt, toSafeNumber } from './rounding';

/**
 * Splits `amount` into integer parts proportional to `weights` by the largest-remainder method;
 * the parts always sum exactly to `amount`.
 *
 * Each part starts as `floor(amount × weight / Σweights)`; the units left over go, one each, to
 * the parts with the largest remainders, ties broken by the lowest index. Every part lies in
 * `[0, amount]` (or `[amount, 0]` for a negative amount, which is split as `−allocate(−amount)`).
 *
 * Decisions:
 * - a zero weight gets 0, unless every weight is zero: then the amount is split evenly, as if all
 *   weights were 1 (the earliest indexes take the leftover units);
 * - an empty `weights` list allocates 0 as `[]` and throws for any other amount (nowhere to put it).
 *
 * @example allocate(100, [1, 1, 1]) // [34, 33, 33]
 * @example allocate(5, [0, 3, 0]) // [0, 5, 0]
 * @throws RangeError when `amount` or a weight is not a safe integer, a weight is negative, or
 * `weights` is empty while `amount` is not 0.
 */
export function allocate(amount: number, weights: readonly number[]): number[] {
  const small = allocateSmall(amount, weights);
  if (small !== undefined) return small;
  const total = toBigInt(amount, 'amount');
  if (weights.length === 0) {
    if (total === 0n) return [];
    throw new RangeError('cannot allocate a non-zero amount over no weights');
  }
  const raw = weights.map((w, i) => {
    const weight = toBigInt(w, `weights[${i}]`);
    if (weight < 0n) throw new RangeError(`weights[${i}] must not be negative`);
    return weight;
  });
  if (total < 0n) return allocateBig(-total, raw).map((part) => (part === 0n ? 0 : -toSafeNumber(part)));
  return allocateBig(total, raw).map((part) => toSafeNumber(part));
}

/**
 * {@link allocate} on numbers, the same parts, when it is exact there (every `|amount| × weight`
 * and the weights' sum at most 2^52 — every real price split); `undefined` otherwise, and for
 * anything {@link allocate} refuses, so that it throws as before. Pricing splits discounts on
 * every request, and `bigint` arithmetic is far slower.
 */
function allocateSmall(amount: number, weights: readonly number[]): number[] | undefined {
  const magnitude = Math.abs(amount);
  if (weights.length === 0 || !Number.isSafeInteger(amount) || magnitude > EXACT_NUMBER_LIMIT) {
    return undefined;
  }
  let sum = 0;
  for (const weight of weights) {
    if (!Number.isSafeInteger(weight) || weight < 0 || weight * magnitude > EXACT_NUMBER_LIMIT) {
      return undefined;
    }
    sum += weight;
  }
  if (sum > EXACT_NUMBER_LIMIT) return undefined;
  const divisor = sum === 0 ? weights.length : sum;
  const parts: number[] = [];
  const order: Array<{ remainder: number; index: number }> = [];
  let leftover = magnitude;
  for (let index = 0; index < weights.length; index++) {
    const weight = sum === 0 ? 1 : (weights[index] as number);
    const { quotient, remainder } = divideSmall(magnitude * weight, divisor);
    parts.push(quotient);
    order.push({ remainder, index });
    leftover -= quotient;
  }
  order.sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : b.remainder - a.remainder));
  for (const { index } of order) {
    if (leftover === 0) break;
    parts[index] = (parts[index] as number) + 1;
    leftover -= 1;
  }
  return amount < 0 ? parts.map((part) => (part === 0 ? 0 : -part)) : parts;
}

/**
 * {@link allocate} on `bigint`s, for callers already working in `bigint`: non-negative `amount`,
 * non-negative weights (not checked).
 */
export function allocateBig(amount: bigint, weights: readonly bigint[]): bigint[] {
  const sum = weights.reduce((acc, w) => acc + w, 0n);
  const effective = sum === 0n ? weights.map(() => 1n) : weights;
  const divisor = sum === 0n ? BigInt(weights.length) : sum;
  const parts = effective.map((w) => (amount * w) / divisor);
  const remainders = effective.map((w) => (amount * w) % divisor);
  let leftover = amount - parts.reduce((acc, p) => acc + p, 0n);
  const order = remainders
    .map((remainder, index) => ({ remainder, index }))
    .sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
  for (const { index } of order) {
    if (leftover === 0n) break;
    parts[index] = (parts[index] ?? 0n) + 1n;
    leftover -= 1n;
  }
  return parts;
}
