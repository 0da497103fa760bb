/**
 * Language tags (BCP 47) and `Accept-Language` negotiation (decisions §21). Pure functions.
 */

/**
 * The longest tag accepted: RFC 5646 §4.4.1 asks every implementation to keep tags of at least
 * 35 characters, which holds every language, extlang, script, region and variant combination in
 * use; longer ones are private-use constructions a store does not sell in.
 */
export const MAX_LOCALE_LENGTH = 35;

/** Letters, digits and `-` only: `Intl` would also take `_` and `@` forms a tag never has. */
const TAG_CHARACTERS = /^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$/;

/**
 * The canonical form of a BCP 47 tag (`en-us` → `en-US`, `zh-hant-tw` → `zh-Hant-TW`,
 * `EN` → `en`), or null when it is not a well-formed tag of at most {@link MAX_LOCALE_LENGTH}
 * characters. Canonicalised by the platform's `Intl.getCanonicalLocales` (Unicode's rules,
 * which also replace deprecated subtags: `iw` → `he`).
 */
export function canonicalLocale(tag: string): string | null {
  if (tag.length === 0 || tag.length > MAX_LOCALE_LENGTH || !TAG_CHARACTERS.test(tag)) return null;
  try {
    const [canonical] = Intl.getCanonicalLocales(tag);
    return canonical !== undefined && canonical.length <= MAX_LOCALE_LENGTH ? canonical : null;
  } catch {
    return null;
  }
}

/** One language range of an `Accept-Language` header and its weight. */
export interface LanguageRange {
  /** Lower case; `*` for any language. */
  range: string;
  /** 0..1 (`q`; 1 when absent). */
  q: number;
}

/** The most ranges read from one header (the rest is ignored): a header is the client's to bloat. */
const MAX_RANGES = 32;
const RANGE = /^(?:\*|[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*)$/;
const WEIGHT = /^q=(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/i;

/**
 * The ranges of an `Accept-Language` header (RFC 9110 §12.5.4), most preferred first: by `q`
 * descending, then in the order written. Malformed entries are skipped, as are those with
 * `q=0` ("not acceptable").
 */
export function parseAcceptLanguage(header: string): LanguageRange[] {
  const ranges: (LanguageRange & { order: number })[] = [];
  for (const entry of header.split(',')) {
    if (ranges.length >= MAX_RANGES) break;
    const [rawRange = '', ...params] = entry.split(';').map((part) => part.trim());
    if (!RANGE.test(rawRange)) continue;
    let q = 1;
    let valid = true;
    for (const param of params) {
      const weight = WEIGHT.exec(param);
      if (weight === null) {
        valid = false;
        break;
      }
      q = Number(weight[1]);
    }
    if (!valid || q === 0) continue;
    ranges.push({ range: rawRange.toLowerCase(), q, order: ranges.length });
  }
  ranges.sort((a, b) => b.q - a.q || a.order - b.order);
  return ranges.map(({ range, q }) => ({ range, q }));
}

/** A range made less specific (RFC 4647 §3.4 lookup): `zh-hant-tw` → `zh-hant`; null past the language. */
function truncate(range: string): string | null {
  let end = range.lastIndexOf('-');
  if (end < 0) return null;
  // A single-character subtag (an extension or private-use marker) goes with what follows it.
  if (end >= 2 && range[end - 2] === '-') end -= 2;
  return range.slice(0, end);
}

/**
 * The best of `available` (canonical tags) for an `Accept-Language` header, or null when the
 * header asks for none of them or for `*` first (the caller then answers its default). Ranges
 * are tried most preferred first; each matches, in this order, a tag equal to it (ignoring case),
 * a tag it is a prefix of (`en` → `en-US`, the first such in `available` order), then the same
 * for the range made less specific step by step (`ko-KR` → `ko`, `zh-Hant-TW` → `zh-Hant` → `zh`).
 */
export function matchAcceptLanguage(header: string, available: readonly string[]): string | null {
  if (available.length === 0) return null;
  const lower = available.map((tag) => tag.toLowerCase());
  for (const { range } of parseAcceptLanguage(header)) {
    if (range === '*') return null;
    for (let candidate: string | null = range; candidate !== null; candidate = truncate(candidate)) {
      const exact = lower.indexOf(candidate);
      if (exact >= 0) return available[exact] as string;
      const prefix = lower.findIndex((tag) => tag.startsWith(`${candidate}-`));
      if (prefix >= 0) return available[prefix] as string;
    }
  }
  return null;
}
