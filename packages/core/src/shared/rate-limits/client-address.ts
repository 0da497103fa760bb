/**
 * Client addresses in canonical form (docs/contract.md#rate-limits): an IPv4 address in dotted
 * decimal without leading zeros, an IPv6 address compressed as RFC 5952 writes it (lower case, the
 * longest run of zero groups as `::`), an IPv4-mapped IPv6 address (`::ffff:203.0.113.7`) as its
 * IPv4 address; no port, brackets or zone. Two spellings of one address compare equal.
 */

/**
 * The canonical text of an IP address written bare (`203.0.113.7`, `2001:DB8::0:1`,
 * `::ffff:203.0.113.7`), or null when `value` (trimmed) is not one — a port, brackets, a zone or
 * a host name make it not one. What `Commerce-Buyer-Ip` must hold.
 */
export function canonicalIp(value: string): string | null {
  const text = value.trim();
  if (!text.includes(':')) return canonicalIpv4(text);
  const groups = parseIpv6(text);
  if (groups === null) return null;
  return mappedIpv4(groups) ?? compressIpv6(groups);
}

/** Dotted decimal without leading zeros: canonical as it is. */
const CANONICAL_IPV4 = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/**
 * A client address as a socket or a proxy (`X-Forwarded-For`) wrote it, parsed: an IPv4 address
 * (canonical text), an IPv6 address (its groups), or anything else (trimmed, lower-cased). A
 * port, brackets and an IPv6 zone are dropped.
 */
function parseClientAddress(address: string): { v4: string } | { v6: number[] } | { other: string } {
  // The common cases first: an IPv4 address as a socket writes it, plain or IPv4-mapped.
  if (CANONICAL_IPV4.test(address)) return { v4: address };
  if (address.length > 7 && address.slice(0, 7).toLowerCase() === '::ffff:') {
    const tail = address.slice(7);
    if (CANONICAL_IPV4.test(tail)) return { v4: tail };
  }
  const text = address.trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(text);
  const bare = (bracketed?.[1] ?? /^(\d+\.\d+\.\d+\.\d+):\d{1,5}$/.exec(text)?.[1] ?? text).split(
    '%',
  )[0] as string;
  if (!bare.includes(':')) {
    const v4 = canonicalIpv4(bare);
    return v4 === null ? { other: text.toLowerCase() } : { v4 };
  }
  const groups = parseIpv6(bare);
  if (groups === null) return { other: text.toLowerCase() };
  const v4 = mappedIpv4(groups);
  return v4 === null ? { v6: groups } : { v4 };
}

/**
 * A client address as a socket or a proxy (`X-Forwarded-For`) wrote it, in canonical form: an IP
 * address also with a port (`203.0.113.7:443`, `[2001:db8::1]:443`), brackets or an IPv6 zone
 * (`fe80::1%eth0`) dropped. Anything else (a host name a proxy wrote, garbage) is kept as written,
 * trimmed and lower-cased.
 */
export function canonicalClientAddress(address: string): string {
  const parsed = parseClientAddress(address);
  if ('v4' in parsed) return parsed.v4;
  return 'v6' in parsed ? compressIpv6(parsed.v6) : parsed.other;
}

/**
 * The key a client address is counted under: its canonical form ({@link canonicalClientAddress})
 * for IPv4, an IPv6 address by its /64 prefix — one subscriber usually holds a whole /64, so
 * counting single IPv6 addresses would give one client 2^64 budgets.
 */
export function addressKey(address: string): string {
  const parsed = parseClientAddress(address);
  if ('v4' in parsed) return parsed.v4;
  if ('other' in parsed) return parsed.other;
  const [a, b, c, d] = parsed.v6 as [number, number, number, number];
  return `${a.toString(16)}:${b.toString(16)}:${c.toString(16)}:${d.toString(16)}::/64`;
}

/** The IPv4 address of an IPv4-mapped IPv6 address (`::ffff:0:0/96`), else null. */
function mappedIpv4(groups: number[]): string | null {
  for (let i = 0; i < 5; i++) if (groups[i] !== 0) return null;
  if (groups[5] !== 0xffff) return null;
  const [high, low] = [groups[6] as number, groups[7] as number];
  return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
}

/** An IPv4 address as four decimal numbers 0–255 (leading zeros dropped), or null. */
function canonicalIpv4(text: string): string | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const numbers: number[] = [];
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const value = Number(part);
    if (value > 255) return null;
    numbers.push(value);
  }
  return numbers.join('.');
}

/** The 8 groups of an IPv6 address written bare (a dotted IPv4 tail allowed), or null. */
function parseIpv6(text: string): number[] | null {
  let value = text;
  let tail: number[] | null = null;
  if (value.includes('.')) {
    const cut = value.lastIndexOf(':');
    const ipv4 = canonicalIpv4(value.slice(cut + 1));
    if (ipv4 === null) return null;
    const [a, b, c, d] = ipv4.split('.').map(Number) as [number, number, number, number];
    tail = [(a << 8) | b, (c << 8) | d];
    // `::1.2.3.4` keeps `::`; `64:ff9b::1.2.3.4` keeps `64:ff9b::`; `1:…:6:1.2.3.4` keeps `1:…:6`.
    value = value[cut - 1] === ':' ? value.slice(0, cut + 1) : value.slice(0, cut);
  }
  const gap = value.indexOf('::');
  if (gap !== value.lastIndexOf('::')) return null;
  const head = gap < 0 ? value : value.slice(0, gap);
  const rest = gap < 0 ? '' : value.slice(gap + 2);
  const headGroups = head === '' ? [] : head.split(':');
  const restGroups = rest === '' ? [] : rest.split(':');
  const written = headGroups.length + restGroups.length + (tail === null ? 0 : 2);
  if (gap < 0 ? written !== 8 : written > 7) return null;
  const groups: number[] = [];
  for (const group of headGroups) {
    if (!HEX_GROUP.test(group)) return null;
    groups.push(Number.parseInt(group, 16));
  }
  for (let i = written; i < 8; i++) groups.push(0);
  for (const group of restGroups) {
    if (!HEX_GROUP.test(group)) return null;
    groups.push(Number.parseInt(group, 16));
  }
  if (tail !== null) groups.push(...tail);
  return groups;
}

const HEX_GROUP = /^[0-9a-fA-F]{1,4}$/;

/** RFC 5952: lower-case hex without leading zeros, the longest run (≥ 2, first if tied) of zeros as `::`. */
function compressIpv6(groups: number[]): string {
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < groups.length; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < groups.length && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}
