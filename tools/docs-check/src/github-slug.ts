/**
 * GitHub's heading anchors, as github-slugger computes them from a heading's rendered text:
 * lower-case; drop every character that is not a letter, mark, number, connector punctuation
 * (`_`), space or ASCII hyphen; turn each space into `-` (runs are not collapsed). A repeated
 * slug in one document gets `-1`, `-2`, … in order. Written here (a few lines) rather than adding
 * github-slugger as a dependency; its punctuation table is approximated with Unicode classes.
 */

/** The slug of one heading text, without de-duplication: `"Keys, modes & tenancy"` → `keys-modes--tenancy`. */
export function githubSlug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/**
 * A slugger for one document: the second heading whose slug is `setup` becomes `setup-1`, the
 * third `setup-2` (github-slugger's `slug()`).
 */
export function createSlugger(): (text: string) => string {
  const occurrences = new Map<string, number>();
  return (text) => {
    const original = githubSlug(text);
    let slug = original;
    while (occurrences.has(slug)) {
      const count = (occurrences.get(original) ?? 0) + 1;
      occurrences.set(original, count);
      slug = `${original}-${count}`;
    }
    occurrences.set(slug, 0);
    return slug;
  };
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/**
 * The text GitHub renders for a heading's Markdown source, which is what the slug is made of:
 * code spans keep their content, links and images keep their text, HTML tags and emphasis
 * markers go, common entities are decoded. `` Use `parseInput` with [zod](https://zod.dev) `` →
 * `Use parseInput with zod`.
 */
export function headingText(markdown: string): string {
  return markdown
    .replace(/`+([^`]*?)`+/g, '$1')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/!?\[([^\]]*)\]\[[^\]]*\]/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/&(#\d+|#x[\da-f]+|[a-z]+);/gi, (entity, name: string) => decodeEntity(entity, name))
    .replace(/(\*\*|__|\*|~~)(?=\S)(.+?)(?<=\S)\1/g, '$2')
    .replace(/(^|[^\p{L}\p{N}])_(?=\S)(.+?)(?<=\S)_(?![\p{L}\p{N}])/gu, '$1$2')
    .trim();
}

function decodeEntity(entity: string, name: string): string {
  if (name.startsWith('#x') || name.startsWith('#X'))
    return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
  if (name.startsWith('#')) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
  return ENTITIES[name.toLowerCase()] ?? entity;
}
