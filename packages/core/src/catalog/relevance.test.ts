import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compareRelevance,
  isWordCharacter,
  nameWordsText,
  relevanceTier,
  WORD_MARK,
  wordStartNeedle,
} from './relevance';

/** Characters that make the rule's edges: case, punctuation, digits, non-ASCII, marks, the word mark. */
const RELEVANCE_ALPHABET = [
  'a',
  'b',
  'A',
  'B',
  't',
  'T',
  's',
  'S',
  '1',
  '2',
  ' ',
  '-',
  '_',
  '%',
  '\\',
  '.',
  "'",
  '/',
  'é',
  'É',
  'e\u0301',
  'ß',
  'ü',
  'Ü',
  'ж',
  'Ж',
  '日',
  '٣',
  '😀',
  'İ',
  WORD_MARK,
];

const text = (maxLength: number) =>
  fc.array(fc.constantFrom(...RELEVANCE_ALPHABET), { maxLength }).map((parts) => parts.join(''));

/** The rule written the slow, obvious way: every word start position of the lower-cased name. */
function slowTier(name: string, q: string): number | null {
  const n = name.toLowerCase();
  const s = q.toLowerCase();
  if (!n.includes(s)) return null;
  if (n === s) return 0;
  if (n.startsWith(s)) return 1;
  const points = Array.from(n);
  let offset = 0;
  for (let i = 0; i < points.length; i++) {
    const startsWord = i === 0 || !/[\p{L}\p{M}\p{N}]/u.test(points[i - 1] as string);
    if (startsWord && n.startsWith(s, offset)) return 2;
    offset += (points[i] as string).length;
  }
  return 3;
}

describe('relevanceTier (decisions §17)', () => {
  it('ranks equal, prefix, word start, anywhere; ignoring case; null when q is not in the name', () => {
    expect(relevanceTier('Shirt', 'shirt')).toBe(0);
    expect(relevanceTier('SHIRT', 'Shirt')).toBe(0);
    expect(relevanceTier('Shirtdress', 'shirt')).toBe(1);
    expect(relevanceTier('Shirt dress', 'SHIRT')).toBe(1);
    expect(relevanceTier('T-Shirt', 'shirt')).toBe(2);
    expect(relevanceTier('Blue shirt', 'shirt')).toBe(2);
    expect(relevanceTier('Overshirt', 'shirt')).toBe(3);
    expect(relevanceTier('Shorts', 'shirt')).toBeNull();
  });

  it('words start after any character that is not a letter, mark or number', () => {
    expect(relevanceTier('T-Shirt', 't')).toBe(1);
    expect(relevanceTier('Big T-Shirt', 't')).toBe(2);
    expect(relevanceTier('Mug (2-pack)', 'pack')).toBe(2);
    expect(relevanceTier('Mug (2-pack)', '2-p')).toBe(2);
    expect(relevanceTier('Mug 2pack', 'pack')).toBe(3); // a digit does not end a word
    expect(relevanceTier('Ärmel/ärmel2', 'ÄRMEL2')).toBe(2);
    expect(relevanceTier('Café crème', 'CRÈME')).toBe(2);
    expect(relevanceTier('Cafe\u0301s', 's')).toBe(3); // a combining mark belongs to its word
    expect(relevanceTier('日本茶', '本')).toBe(3); // CJK ideographs are letters: no word break
    expect(relevanceTier('Tee😀Shirt', 'shirt')).toBe(2); // an emoji is not a letter
    expect(relevanceTier('Tee_shirt', 'shirt')).toBe(2); // `_` separates, unlike regex \w
    expect(relevanceTier('ab ab', 'ab')).toBe(1);
    expect(relevanceTier('xab ab', 'ab')).toBe(2); // a later occurrence can start a word
  });

  it('counts matches exactly as the q filter does (toLowerCase of both)', () => {
    expect(relevanceTier('STRASSE', 'straße')).toBeNull();
    expect(relevanceTier('Straße', 'STRASSE')).toBeNull();
    expect(relevanceTier('ŽLUTÝ', 'žlutý')).toBe(0);
  });

  it('property: equals the slow rule on random names with punctuation, digits, case, non-ASCII', () => {
    fc.assert(
      fc.property(
        text(12),
        text(4).filter((q) => q !== ''),
        (name, q) => {
          expect(relevanceTier(name, q)).toBe(slowTier(name, q));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('property: q cut from the name always matches, and tier 2 whenever cut at a word start', () => {
    fc.assert(
      fc.property(text(12), fc.nat(), fc.nat({ max: 5 }), (name, at, length) => {
        const points = Array.from(name);
        fc.pre(points.length > 0);
        const start = at % points.length;
        const q = points.slice(start, start + Math.max(1, length)).join('');
        fc.pre(q.toLowerCase() !== '');
        const tier = relevanceTier(name, q);
        expect(tier).not.toBeNull();
        const startsWord = start === 0 || !isWordCharacter(points[start - 1] as string);
        if (startsWord) expect(tier).toBeLessThanOrEqual(2);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('nameWordsText / wordStartNeedle: the text the storage compares with LIKE', () => {
  it('marks the character before every word start', () => {
    expect(nameWordsText('T-Shirt')).toBe(`${WORD_MARK}t-${WORD_MARK}shirt`);
    expect(wordStartNeedle('Shirt')).toBe(`${WORD_MARK}shirt`);
    expect(nameWordsText('a  b')).toBe(`${WORD_MARK}a ${WORD_MARK} ${WORD_MARK}b`);
  });

  it('property: contains(nameWordsText(name), wordStartNeedle(q)) exactly when q starts a word (tier ≤ 2)', () => {
    fc.assert(
      fc.property(
        text(12),
        text(4).filter((q) => q !== ''),
        (name, q) => {
          const tier = relevanceTier(name, q);
          const inWords = nameWordsText(name).includes(wordStartNeedle(q));
          expect(inWords).toBe(tier !== null && tier <= 2);
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('holds for names and searches made of word marks (the marked form stays unambiguous)', () => {
    const m = WORD_MARK;
    for (const [name, q] of [
      [`${m}${m}ab`, 'b'],
      [`${m}ab`, 'b'],
      [`x${m}${m}${m}`, `${m}${m}`],
      [`${m}x`, `${m}x`],
      [`a${m}`, `${m}`],
    ] as const) {
      const tier = relevanceTier(name, q);
      expect(nameWordsText(name).includes(wordStartNeedle(q)), `${JSON.stringify([name, q])}`).toBe(
        tier !== null && tier <= 2,
      );
    }
  });
});

describe('compareRelevance', () => {
  it('orders by tier, then newest first, then id descending', () => {
    const rows = [
      { id: 'p1', name: 'Overshirt', created_at: 5 },
      { id: 'p2', name: 'T-Shirt', created_at: 1 },
      { id: 'p3', name: 'Shirt', created_at: 1 },
      { id: 'p4', name: 'Shirt dress', created_at: 1 },
      { id: 'p5', name: 'Blue shirt', created_at: 3 },
      { id: 'p6', name: 'Red shirt', created_at: 3 },
    ];
    expect(rows.sort(compareRelevance('shirt')).map((row) => row.id)).toEqual([
      'p3',
      'p4',
      'p6',
      'p5',
      'p2',
      'p1',
    ]);
  });
});
