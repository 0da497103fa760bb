/**
 * `sort=relevance` on the storefront product list (decisions §17, docs/organising-the-catalog.md#search-and-relevance).
 *
 * A product matches `q` when its name contains `q`, ignoring case (decisions §7). Its tier:
 *
 * - 0: the name equals `q`;
 * - 1: the name starts with `q`;
 * - 2: `q` starts a word of the name;
 * - 3: `q` is anywhere else in the name.
 *
 * Ties: `created_at` desc, then `id` desc. "Ignoring case" means both texts compared after
 * JavaScript's `toLowerCase()` (Unicode default case mapping, locale-independent), the same
 * lower-casing as the `q` filter itself; words are those of the lower-cased name. A word starts
 * at the beginning of the name and after every character that is not a word character; word
 * characters are Unicode letters (`\p{L}`), combining marks (`\p{M}`, so `é` written as `e` +
 * U+0301 stays one word) and numbers (`\p{N}`). Everything else — spaces, punctuation, symbols,
 * emoji, controls — separates words: `T-Shirt` has the words `t` and `shirt`, `Café, crème`
 * `café` and `crème`, `ÄRMEL/Ärmel2` `ärmel` and `ärmel2`.
 *
 * The storage computes the same tier in SQL from the lower-cased name and a text kept beside it,
 * {@link nameWordsText}: no engine decides what a letter is (SQLite, PostgreSQL and MariaDB
 * disagree), every engine only compares stored text with `LIKE` (case-sensitive comparisons of
 * lower-cased texts). {@link relevanceTier} is the reference the SQL is tested against.
 */

/** The tier of a match: 0 is the most relevant. */
export type RelevanceTier = 0 | 1 | 2 | 3;

const WORD_CHARACTER = /[\p{L}\p{M}\p{N}]/u;

/** Whether `char` (one code point) is part of a word. */
export function isWordCharacter(char: string): boolean {
  return WORD_CHARACTER.test(char);
}

/** The lower-casing of names and `q` for matching and ranking (the `q` filter's too). */
export function searchText(text: string): string {
  return text.toLowerCase();
}

/**
 * The tier of `name` for the search `q` (already trimmed, not empty), or null when the name does
 * not contain `q` (ignoring case). The reference rule: the storage's SQL must order exactly so.
 */
export function relevanceTier(name: string, q: string): RelevanceTier | null {
  const text = searchText(name);
  const needle = searchText(q);
  if (needle === '') return text === '' ? 0 : 1;
  if (text === needle) return 0;
  if (text.startsWith(needle)) return 1;
  let found = text.indexOf(needle);
  if (found < 0) return null;
  while (found >= 0) {
    if (found === 0 || !endsWithWordCharacter(text.slice(0, found))) return 2;
    found = text.indexOf(needle, found + 1);
  }
  return 3;
}

/** Whether the last code point of `text` is a word character (a lone surrogate is not). */
function endsWithWordCharacter(text: string): boolean {
  const end = text.length;
  const low = text.charCodeAt(end - 1);
  const high = text.charCodeAt(end - 2);
  // A surrogate pair is one code point: read both halves.
  const pair = low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff;
  return isWordCharacter(text.slice(pair ? end - 2 : end - 1));
}

/**
 * The word mark of {@link nameWordsText}: U+0001, a control character (so never part of a word,
 * storable on every engine, and not a `LIKE` wildcard).
 */
export const WORD_MARK = '\u0001';

/**
 * The marked form of a lower-cased text: every character that is not a word character is
 * followed by {@link WORD_MARK} (the mark itself too, as `MM`); word characters are kept as they
 * are. Each character's form is determined by its first character, so an occurrence of
 * `marked(q)` in `marked(name)` that begins where a character's form begins is an occurrence of
 * `q` in the name at that character.
 */
function marked(text: string): string {
  let out = '';
  for (const char of text) out += isWordCharacter(char) ? char : char + WORD_MARK;
  return out;
}

/**
 * The text a storage keeps beside the name (`products.name_words`) to find word starts with
 * `LIKE`: {@link WORD_MARK} followed by the marked lower-cased name. Every mark in it is followed
 * by the start of a word (or by a mark / the end); so `q` starts a word of the name exactly when
 * this text contains {@link wordStartNeedle}`(q)` (proven against {@link relevanceTier} in
 * relevance.test.ts, including names full of marks).
 */
export function nameWordsText(name: string): string {
  return WORD_MARK + marked(searchText(name));
}

/** What {@link nameWordsText} contains exactly when `q` starts a word of the name. */
export function wordStartNeedle(q: string): string {
  return WORD_MARK + marked(searchText(q));
}

/** What a relevance list orders by, per product. */
export interface RelevanceRow {
  id: string;
  name: string;
  created_at: number;
}

/**
 * The relevance order of products that match `q` (the reference for the storage's SQL): tier
 * ascending, then `created_at` descending, then `id` descending. Rows that do not match sort last.
 */
export function compareRelevance(q: string): (a: RelevanceRow, b: RelevanceRow) => number {
  return (a, b) => {
    const ta = relevanceTier(a.name, q) ?? 4;
    const tb = relevanceTier(b.name, q) ?? 4;
    if (ta !== tb) return ta - tb;
    if (a.created_at !== b.created_at) return b.created_at - a.created_at;
    return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
  };
}
