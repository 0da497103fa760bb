import { lookup } from 'node:dns/promises';
import { formatIpv4, inIpv4Range, inIpv6Range, parseIpv4, parseIpv6 } from './ip-address';

/**
 * Webhook URL safety (docs/contract.md#webhooks, SSRF): unless private targets are allowed, a webhook may not
 * reach loopback, private, link-local, shared (CGNAT), multicast, broadcast, reserved or cloud
 * metadata addresses — written literally in any form, or reached through a host name whose DNS
 * answer contains such an address (every answer must be public).
 */

/** One DNS answer. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all its addresses (A and AAAA). Rejects when it does not resolve. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** The system resolver (`getaddrinfo`, so `/etc/hosts` counts), all answers in resolver order. */
export const systemResolver: Resolver = async (hostname) => {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => ({ address: answer.address, family: answer.family === 6 ? 6 : 4 }));
};

export type UrlCheck =
  | {
      allowed: true;
      url: URL;
      /** Where to connect: the literal address, or the checked DNS answers (empty when unresolved). */
      addresses: ResolvedAddress[];
    }
  | {
      allowed: false;
      reason: string;
      /** `blocked`: a forbidden target; `unresolved`: DNS gave no answer; `invalid`: not an http(s) URL. */
      kind: 'blocked' | 'unresolved' | 'invalid';
    };

export interface CheckWebhookUrlOptions {
  /** Skip the address rules (docs/contract.md#running `COMMERCE_ALLOW_PRIVATE_WEBHOOKS`); default false. */
  allowPrivate?: boolean;
  resolve?: Resolver;
  /**
   * What a host name that does not resolve means: `refuse` (delivery: nowhere to connect) or
   * `allow` (creation: a receiver whose DNS is not live yet may be registered; every delivery
   * checks again). Default `refuse`.
   */
  unresolvable?: 'allow' | 'refuse';
}

const IPV4_BLOCKED: ReadonlyArray<readonly [string, number, string]> = [
  ['0.0.0.0', 8, '"this network" address'],
  ['10.0.0.0', 8, 'private address'],
  ['100.64.0.0', 10, 'shared (CGNAT) address'],
  ['127.0.0.0', 8, 'loopback address'],
  ['169.254.0.0', 16, 'link-local address (cloud metadata)'],
  ['172.16.0.0', 12, 'private address'],
  ['192.0.0.0', 24, 'IETF protocol address'],
  ['192.0.2.0', 24, 'documentation address'],
  ['192.88.99.0', 24, '6to4 relay address'],
  ['192.168.0.0', 16, 'private address'],
  ['198.18.0.0', 15, 'benchmarking address'],
  ['198.51.100.0', 24, 'documentation address'],
  ['203.0.113.0', 24, 'documentation address'],
  ['224.0.0.0', 4, 'multicast address'],
  ['240.0.0.0', 4, 'reserved or broadcast address'],
];
const IPV4_RANGES = IPV4_BLOCKED.map(([prefix, bits, label]) => ({
  prefix: parseIpv4(prefix) as number,
  bits,
  label,
}));

const v6 = (text: string) => parseIpv6(text) as bigint;

/** Ranges whose last 32 bits carry an IPv4 address that decides. */
const IPV6_EMBEDDING_V4: ReadonlyArray<readonly [bigint, number, string]> = [
  [v6('::ffff:0:0'), 96, 'IPv4-mapped'],
  [v6('64:ff9b::'), 96, 'NAT64'],
];

const IPV6_BLOCKED: ReadonlyArray<readonly [bigint, number, string]> = [
  [v6('::'), 128, 'unspecified address'],
  [v6('::1'), 128, 'loopback address'],
  [v6('::'), 96, 'IPv4-compatible address'],
  [v6('64:ff9b:1::'), 48, 'local-use NAT64 address'],
  [v6('100::'), 64, 'discard-only address'],
  [v6('2001::'), 23, 'IETF protocol address (Teredo, ORCHID…)'],
  [v6('2001:db8::'), 32, 'documentation address'],
  [v6('3fff::'), 20, 'documentation address'],
  [v6('fc00::'), 7, 'unique-local address'],
  [v6('fe80::'), 10, 'link-local address'],
  [v6('fec0::'), 10, 'site-local address'],
  [v6('ff00::'), 8, 'multicast address'],
];

/**
 * Why an IP address may not be a webhook target, or null when it is public. Accepts IPv4 in any
 * `inet_aton` form and IPv6 (mapped, NAT64 and 6to4 addresses are judged by their IPv4 part).
 */
export function blockedAddressReason(address: string): string | null {
  const ipv4 = parseIpv4(address);
  if (ipv4 !== null) return ipv4Reason(ipv4);
  const ipv6 = parseIpv6(address);
  if (ipv6 === null) return 'not an IP address';
  return ipv6Reason(ipv6);
}

function ipv4Reason(value: number): string | null {
  for (const range of IPV4_RANGES) {
    if (inIpv4Range(value, range.prefix, range.bits)) return `${range.label} ${formatIpv4(value)}`;
  }
  return null;
}

function ipv6Reason(value: bigint): string | null {
  for (const [prefix, bits, label] of IPV6_EMBEDDING_V4) {
    if (inIpv6Range(value, prefix, bits)) {
      const reason = ipv4Reason(Number(value & 0xffffffffn));
      return reason === null ? null : `${label} ${reason}`;
    }
  }
  if (inIpv6Range(value, v6('2002::'), 16)) {
    const reason = ipv4Reason(Number((value >> 80n) & 0xffffffffn));
    return reason === null ? null : `6to4 ${reason}`;
  }
  for (const [prefix, bits, label] of IPV6_BLOCKED) {
    if (inIpv6Range(value, prefix, bits)) return label;
  }
  // Only 2000::/3 is global unicast today; everything else is reserved.
  if (!inIpv6Range(value, v6('2000::'), 3)) return 'reserved address';
  return null;
}

/** Host names of cloud metadata services (they resolve to link-local addresses inside the cloud). */
const METADATA_HOSTS = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.azure.internal',
  'metadata.oraclecloud.com',
  'metadata.platformequinix.com',
  'metadata.packet.net',
  'metadata.tencentyun.com',
  'kubernetes.default',
  'kubernetes.default.svc',
]);

/**
 * Why a host name (not an IP literal) may not be a webhook target before any DNS lookup, or null:
 * `localhost` and `*.localhost`, metadata host names, the private-use `.internal`, `.local`
 * (mDNS) and `.home.arpa` names, and single-label names (they resolve through local search
 * domains to internal hosts).
 */
export function blockedHostnameReason(hostname: string): string | null {
  const host = hostname.toLowerCase().replace(/\.+$/, '');
  if (host === '') return 'empty host name';
  if (host === 'localhost' || host.endsWith('.localhost')) return `local host name ${host}`;
  if (METADATA_HOSTS.has(host)) return `cloud metadata host name ${host}`;
  if (/\.(internal|local|home\.arpa)$/.test(host)) return `private host name ${host}`;
  if (!host.includes('.')) return `single-label host name ${host}`;
  return null;
}

/** The host of a parsed URL without IPv6 brackets. */
export function bareHostname(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/** Whether the host is an IP literal (after WHATWG URL normalisation). */
export function isIpLiteral(host: string): boolean {
  return parseIpv6(host) !== null || /^[0-9.]+$/.test(host);
}

/**
 * Checks a webhook URL: absolute `http:`/`https:`, and — unless `allowPrivate` — a public target.
 * IP literals are judged directly (WHATWG URL parsing already turns `2130706433`, `0x7f000001`
 * and `0177.0.0.1` into `127.0.0.1`; the IPv4 parser accepts those forms again as a second
 * line of defence); host names by name, then by every address DNS returns.
 * Returns the addresses to connect to, so that the connection goes exactly where the check
 * looked (no DNS rebinding between check and connect).
 */
export async function checkWebhookUrl(
  rawUrl: string,
  options: CheckWebhookUrlOptions = {},
): Promise<UrlCheck> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return { allowed: false, kind: 'invalid', reason: 'not an absolute URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { allowed: false, kind: 'invalid', reason: `scheme ${url.protocol} is not http(s)` };
  }
  const host = bareHostname(url);
  if (host === '') return { allowed: false, kind: 'invalid', reason: 'no host' };
  const allowPrivate = options.allowPrivate ?? false;

  if (isIpLiteral(host)) {
    const reason = allowPrivate ? null : blockedAddressReason(host);
    if (reason !== null) return { allowed: false, kind: 'blocked', reason };
    return { allowed: true, url, addresses: [{ address: host, family: host.includes(':') ? 6 : 4 }] };
  }

  if (!allowPrivate) {
    const reason = blockedHostnameReason(host);
    if (reason !== null) return { allowed: false, kind: 'blocked', reason };
  }
  let addresses: ResolvedAddress[];
  try {
    addresses = await (options.resolve ?? systemResolver)(host);
  } catch (error) {
    if (options.unresolvable === 'allow') return { allowed: true, url, addresses: [] };
    return {
      allowed: false,
      kind: 'unresolved',
      reason: `${host} does not resolve (${describeError(error)})`,
    };
  }
  if (addresses.length === 0) {
    if (options.unresolvable === 'allow') return { allowed: true, url, addresses: [] };
    return { allowed: false, kind: 'unresolved', reason: `${host} has no addresses` };
  }
  if (!allowPrivate) {
    for (const answer of addresses) {
      const reason = blockedAddressReason(answer.address);
      if (reason !== null)
        return { allowed: false, kind: 'blocked', reason: `${host} resolves to a ${reason}` };
    }
  }
  return { allowed: true, url, addresses };
}

function describeError(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'code' in error) return String(error.code);
  return error instanceof Error ? error.message : String(error);
}
