import { createSlugger, headingText } from './github-slug';

/** A link found in Markdown source: its destination as written and its 1-based line. */
export interface MarkdownLink {
  target: string;
  line: number;
}

/** What a Markdown file offers and points at. */
export interface MarkdownScan {
  /** Inline links and images `[text](target)`, reference definitions `[id]: target`, autolinks `<https://…>`. */
  links: MarkdownLink[];
  /** Heading slugs (GitHub's rules, duplicates numbered) plus explicit HTML `id`/`name` anchors. */
  anchors: Set<string>;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const FENCE_CLOSE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;
const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const REFERENCE = /^ {0,3}\[[^\]]+\]:[ \t]*(<[^>]*>|\S+)/;
const AUTOLINK = /<((?:https?|mailto):[^\s<>]*)>/gi;
const HTML_ANCHOR = /<[a-z][^>]*?\s(?:id|name)\s*=\s*["']([^"']+)["']/gi;

/**
 * Scans Markdown source for links and anchors, line by line. Fenced code blocks and code spans
 * are skipped (a link inside code is text). Headings are ATX (`## Title`) or setext (a line
 * underlined with `===`/`---` after paragraph text). A small scanner rather than a Markdown
 * parser dependency: it covers the constructs these docs use.
 */
export function scanMarkdown(source: string): MarkdownScan {
  const links: MarkdownLink[] = [];
  const anchors = new Set<string>();
  const slug = createSlugger();
  const lines = source.split(/\r?\n/);
  let fence: { char: string; length: number } | undefined;
  let previousParagraph: string | undefined;

  lines.forEach((raw, index) => {
    const lineNumber = index + 1;
    if (fence !== undefined) {
      const close = FENCE_CLOSE.exec(raw)?.[1];
      if (close !== undefined && close[0] === fence.char && close.length >= fence.length) fence = undefined;
      return;
    }
    const fenceMatch = FENCE.exec(raw);
    if (fenceMatch?.[1] !== undefined) {
      fence = { char: fenceMatch[1][0] as string, length: fenceMatch[1].length };
      previousParagraph = undefined;
      return;
    }

    // Headings are read from the raw line (their code spans count as text); links from the
    // line with code spans blanked out.
    const line = stripCodeSpans(raw);
    const atx = ATX.exec(raw);
    if (atx !== null) {
      anchors.add(slug(headingText(atx[2] ?? '')));
      previousParagraph = undefined;
    } else if (SETEXT.test(line) && previousParagraph !== undefined) {
      anchors.add(slug(headingText(previousParagraph)));
      previousParagraph = undefined;
    } else if (line.trim() === '' || /^ {0,3}([-*+]|\d+[.)]|>|\|)/.test(line)) {
      previousParagraph = undefined;
    } else {
      previousParagraph = raw.trim();
    }

    for (const match of line.matchAll(HTML_ANCHOR)) anchors.add(match[1] as string);
    const reference = REFERENCE.exec(line);
    if (reference !== null) links.push({ target: unwrap(reference[1] as string), line: lineNumber });
    for (const target of inlineDestinations(line)) links.push({ target, line: lineNumber });
    for (const match of line.matchAll(AUTOLINK)) links.push({ target: match[1] as string, line: lineNumber });
  });
  return { links, anchors };
}

/** Replaces code spans (`` `x` ``, ``` ``x`` ```) by spaces so nothing inside them is read as a link. */
function stripCodeSpans(line: string): string {
  return line.replace(/(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g, (span) => ' '.repeat(span.length));
}

/** Destinations of `[text](dest "title")` and `![alt](dest)`: `<…>` or a run with balanced parentheses. */
function inlineDestinations(line: string): string[] {
  const targets: string[] = [];
  let from = 0;
  for (;;) {
    const at = line.indexOf('](', from);
    if (at === -1) return targets;
    from = at + 2;
    if (line[at - 1] === '\\') continue;
    let i = from;
    while (line[i] === ' ' || line[i] === '\t') i++;
    if (line[i] === '<') {
      const end = line.indexOf('>', i);
      if (end !== -1) targets.push(line.slice(i + 1, end));
      continue;
    }
    let depth = 0;
    let j = i;
    for (; j < line.length; j++) {
      const ch = line[j];
      if (ch === '\\') {
        j++;
      } else if (ch === '(') {
        depth++;
      } else if (ch === ')') {
        if (depth === 0) break;
        depth--;
      } else if (ch === ' ' || ch === '\t') {
        break;
      }
    }
    targets.push(line.slice(i, j));
  }
}

function unwrap(target: string): string {
  return target.startsWith('<') && target.endsWith('>') ? target.slice(1, -1) : target;
}
