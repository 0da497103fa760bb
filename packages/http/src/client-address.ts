import { CommerceError } from '@cartwright/core';
import { canonicalIp } from '@cartwright/core/operations';
import type { HeaderReader, RawRequest } from './raw-http';

/**
 * Which client a request comes from, for the per-address rate limits (docs/contract.md#rate-limits).
 * `trustProxy`: how many proxies in front of the API append to `X-Forwarded-For` (`true`: trust
 * the whole header, take its first address; `false`/0, the default: ignore the header, since any
 * client can write it). With N trusted proxies the client is the N-th address from the right.
 */
export type TrustProxy = boolean | number;

/**
 * The client address as the socket or the trusted proxy wrote it; the limits compare it in
 * canonical form (core's `addressKey`: no port, no leading zeros, IPv6 compressed, IPv4-mapped
 * IPv6 as IPv4).
 */
export function clientAddressOf(raw: RawRequest, trustProxy: TrustProxy): string | undefined {
  const socket = raw.clientAddress;
  if (trustProxy === false || trustProxy === 0) return socket;
  const header = raw.headers.get('x-forwarded-for');
  if (header === null) return socket;
  const hops = header
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if (hops.length === 0) return socket;
  if (trustProxy === true) return hops[0];
  return hops[Math.max(0, hops.length - trustProxy)];
}

/** The header a secret-key caller (a storefront's server) names its shopper's address in. */
export const BUYER_IP_HEADER = 'Commerce-Buyer-Ip';

/**
 * The shopper's address a secret-key request names in `Commerce-Buyer-Ip`, in canonical form;
 * undefined without the header. Anything but one IP address → 400 `parameter_invalid`
 * (`param: Commerce-Buyer-Ip`). The caller reads it only for secret keys: a publishable key is
 * the shopper's own browser, and whatever it names is ignored.
 */
export function buyerAddressOf(headers: HeaderReader): string | undefined {
  const value = headers.get(BUYER_IP_HEADER.toLowerCase());
  if (value === null) return undefined;
  const address = canonicalIp(value);
  if (address === null) {
    throw new CommerceError(
      'parameter_invalid',
      `The ${BUYER_IP_HEADER} header must be an IPv4 or IPv6 address.`,
      { param: BUYER_IP_HEADER },
    );
  }
  return address;
}
