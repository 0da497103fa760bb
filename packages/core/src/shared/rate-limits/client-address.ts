/**
 * The key a client address is counted under: an IPv4 address as it is (also when written as an
 * IPv4-mapped IPv6 address, `::ffff:203.0.113.7`), an IPv6 address by its /64 prefix — one
 * subscriber usually holds a whole /64, so counting single IPv6 addresses would give one client
 * 2^64 budgets. Anything else (a host name a proxy wrote, garbage) is counted as written, trimmed.
 */
export function addressKey(address: string): string {
  const value = address.trim().toLowerCase();
  if (!value.includes(':')) return value;
  const mapped =
    /^(?:0*:)*:?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(value) ?? /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(value);
  if (mapped !== null) return mapped[1] as string;
  const groups = expandIpv6(value.split('%')[0] as string);
  return groups === null ? value : `${groups.slice(0, 4).join(':')}::/64`;
}

/** The 8 groups of an IPv6 address (without zone), each without leading zeros; null if malformed. */
function expandIpv6(value: string): string[] | null {
  const halves = value.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string) => (part === '' ? [] : part.split(':'));
  const head = parse(halves[0] as string);
  const tail = halves.length === 2 ? parse(halves[1] as string) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  for (const group of groups) if (!/^[0-9a-f]{1,4}$/.test(group)) return null;
  return groups.map((group) => group.replace(/^0+(?=.)/, ''));
}
