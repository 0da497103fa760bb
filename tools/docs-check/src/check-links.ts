import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { scanMarkdown } from './markdown-scan';

/** A link that does not resolve. */
export interface LinkProblem {
  /** The Markdown file, relative to the root. */
  file: string;
  line: number;
  target: string;
  reason: string;
}

/** Anchors of target files, read once per run. */
export type AnchorCache = Map<string, Set<string>>;

const SCHEME = /^[a-z][a-z\d+.-]*:/i;

/**
 * Checks every link of one Markdown file (`file` relative to `root`):
 *
 * - `http(s)` links are not fetched, only parsed: they must be absolute URLs with a host;
 * - other schemes (`mailto:`, `tel:`…) are accepted as written;
 * - relative paths (to the file's folder, or to the root when they start with `/`) must name a
 *   file or folder inside the root; `?query` is ignored and `%xx` decoded;
 * - `#anchor` (alone, or after a path) must be a heading slug of the Markdown target (GitHub's
 *   rules; compared case-insensitively, as GitHub resolves them) or an `id`/`name` of an HTML
 *   target; anchors into other files (`main.ts#L10`) and folders are not checked.
 */
export function checkFileLinks(root: string, file: string, cache: AnchorCache = new Map()): LinkProblem[] {
  const absolute = join(root, file);
  const scan = scanMarkdown(readFileSync(absolute, 'utf8'));
  cache.set(absolute, scan.anchors);
  const problems: LinkProblem[] = [];
  for (const { target, line } of scan.links) {
    const reason = checkTarget(root, absolute, target.trim(), cache);
    if (reason !== undefined) problems.push({ file, line, target, reason });
  }
  return problems;
}

function checkTarget(root: string, from: string, target: string, cache: AnchorCache): string | undefined {
  if (target === '') return 'empty link target';
  if (target.startsWith('//')) return checkUrl(`https:${target}`);
  if (SCHEME.test(target)) return /^https?:/i.test(target) ? checkUrl(target) : undefined;

  const hash = target.indexOf('#');
  const pathPart = (hash === -1 ? target : target.slice(0, hash)).split('?')[0] as string;
  const anchor = hash === -1 ? '' : target.slice(hash + 1);
  let path: string;
  try {
    path = decodeURIComponent(pathPart);
  } catch {
    return `malformed percent-encoding in "${pathPart}"`;
  }
  const resolved =
    path === '' ? from : path.startsWith('/') ? join(root, path) : resolve(dirname(from), path);
  const inside = relative(root, resolved);
  if (inside.startsWith(`..${sep}`) || inside === '..') return 'points outside the repository';
  if (!existsSync(resolved)) return `no such file: ${inside.split(sep).join('/')}`;
  if (anchor === '' || statSync(resolved).isDirectory()) return undefined;

  const anchors = anchorsOf(resolved, cache);
  if (anchors === undefined) return undefined;
  let wanted: string;
  try {
    wanted = decodeURIComponent(anchor);
  } catch {
    wanted = anchor;
  }
  if (anchors.has(wanted)) return undefined;
  const lower = wanted.toLowerCase();
  for (const existing of anchors) if (existing.toLowerCase() === lower) return undefined;
  return `no heading or id "#${wanted}" in ${inside.split(sep).join('/') || 'this file'}`;
}

/** A URL that parses as absolute http(s) with a host and no whitespace. */
function checkUrl(target: string): string | undefined {
  if (/\s/.test(target)) return 'malformed URL (contains whitespace)';
  try {
    const url = new URL(target);
    if (url.hostname === '') return 'malformed URL (no host)';
    return undefined;
  } catch {
    return 'malformed URL';
  }
}

/** Heading slugs of a Markdown file, `id`/`name` values of an HTML file, undefined for others. */
function anchorsOf(path: string, cache: AnchorCache): Set<string> | undefined {
  const cached = cache.get(path);
  if (cached !== undefined) return cached;
  let anchors: Set<string>;
  if (/\.(md|markdown)$/i.test(path)) {
    anchors = scanMarkdown(readFileSync(path, 'utf8')).anchors;
  } else if (/\.html?$/i.test(path)) {
    const html = readFileSync(path, 'utf8');
    anchors = new Set(
      [...html.matchAll(/\s(?:id|name)\s*=\s*["']([^"']+)["']/gi)].map((m) => m[1] as string),
    );
  } else return undefined;
  cache.set(path, anchors);
  return anchors;
}

/** One problem as a line of a report: `docs/guides/express.md:12 → ../api.md#keys: no such file: api.md`. */
export function formatProblem(problem: LinkProblem): string {
  return `${problem.file}:${problem.line} → ${problem.target}: ${problem.reason}`;
}
