/**
 * IP address parsing for the URL safety check: IPv4 in every form `inet_aton` accepts (dotted,
 * decimal `2130706433`, hex `0x7f000001`, octal `0177.0.0.1`, short `127.1`) and IPv6 with `::`
 * compression, an embedded IPv4 tail and an optional zone (`fe80::1%eth0`). No I/O.
 */

/** An IPv4 address as an unsigned 32-bit number, or null when `text` is not one. */
export function parseIpv4(text: string): number | null {
  const parts = text.split('.');
  if (parts.length > 4 || parts.some((part) => part.length === 0)) return null;
  const values: number[] = [];
  for (const part of parts) {
    const value = parseIpv4Part(part);
    if (value === null) return null;
    values.push(value);
  }
  // inet_aton: a.b.c.d, a.b.c (c is 16 bits), a.b (b is 24 bits), a (32 bits).
  const last = values.pop() as number;
  if (values.some((v) => v > 255)) return null;
  const lastBits = 8 * (4 - values.length);
  if (last >= 2 ** lastBits) return null;
  let result = 0;
  for (const value of values) result = result * 256 + value;
  return result * 2 ** lastBits + last;
}

function parseIpv4Part(part: string): number | null {
  let digits = part;
  let radix = 10;
  if (/^0x/i.test(part)) {
    digits = part.slice(2);
    radix = 16;
    if (digits === '') return 0;
  } else if (part.length > 1 && part.startsWith('0')) {
    digits = part.slice(1);
    radix = 8;
  }
  const pattern = radix === 16 ? /^[0-9a-f]+$/i : radix === 8 ? /^[0-7]+$/ : /^[0-9]+$/;
  if (!pattern.test(digits)) return null;
  const value = Number.parseInt(digits, radix);
  return Number.isSafeInteger(value) && value <= 0xffffffff ? value : null;
}

/** `a.b.c.d` of a 32-bit number. */
export function formatIpv4(value: number): string {
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join('.');
}

/**
 * An IPv6 address as a 128-bit BigInt, or null when `text` is not one. Brackets (`[::1]`) and a
 * zone id (`%eth0`, `%25eth0`) are accepted and ignored.
 */
export function parseIpv6(text: string): bigint | null {
  let value = text;
  if (value.startsWith('[') && value.endsWith(']')) value = value.slice(1, -1);
  const zone = value.indexOf('%');
  if (zone >= 0) value = value.slice(0, zone);
  if (!value.includes(':')) return null;

  const halves = value.split('::');
  if (halves.length > 2) return null;
  const head = parseGroups(halves[0] ?? '');
  const tail = halves.length === 2 ? parseGroups(halves[1] ?? '') : [];
  if (head === null || tail === null) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...head, ...new Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
  let result = 0n;
  for (const group of groups) result = (result << 16n) | BigInt(group);
  return result;
}

/** The 16-bit groups of one side of `::`; a trailing dotted IPv4 counts as two groups. */
function parseGroups(side: string): number[] | null {
  if (side === '') return [];
  const pieces = side.split(':');
  const groups: number[] = [];
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i] as string;
    if (i === pieces.length - 1 && piece.includes('.')) {
      if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(piece)) return null;
      const octets = piece.split('.').map(Number);
      if (octets.some((octet) => octet > 255)) return null;
      const [a = 0, b = 0, c = 0, d = 0] = octets;
      groups.push(a * 256 + b, c * 256 + d);
    } else {
      if (!/^[0-9a-f]{1,4}$/i.test(piece)) return null;
      groups.push(Number.parseInt(piece, 16));
    }
  }
  return groups;
}

/** Whether the top `bits` bits of `value` equal those of `prefix` (IPv6, 128-bit). */
export function inIpv6Range(value: bigint, prefix: bigint, bits: number): boolean {
  const shift = BigInt(128 - bits);
  return value >> shift === prefix >> shift;
}

/** Whether the top `bits` bits of `value` equal those of `prefix` (IPv4, 32-bit). */
export function inIpv4Range(value: number, prefix: number, bits: number): boolean {
  if (bits === 0) return true;
  const shift = 32 - bits;
  return Math.floor(value / 2 ** shift) === Math.floor(prefix / 2 ** shift);
}
