import type { RawRequest } from './raw-http';

/**
 * Which client a request comes from, for the per-address rate limits (docs/contract.md#rate-limits).
 * `trustProxy`: how many proxies in front of the API append to `X-Forwarded-For` (`true`: trust
 * the whole header, take its first address; `false`/0, the default: ignore the header, since any
 * client can write it). With N trusted proxies the client is the N-th address from the right.
 */
export type TrustProxy = boolean | number;

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
