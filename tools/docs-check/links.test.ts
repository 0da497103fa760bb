import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type AnchorCache, checkFileLinks, formatProblem } from './src/check-links';
import { findDocFiles } from './src/doc-files';

/**
 * The repository's docs link check: every relative link of README.md, docs/**\/*.md and the
 * READMEs under examples/ and packages/ names a file that exists, every `#anchor` a heading
 * (GitHub's slugs) of its Markdown target, and every external link is a well-formed http(s) URL
 * (not fetched). A failure lists each broken link as `file:line → target: reason`.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const files = findDocFiles(root);
const cache: AnchorCache = new Map();

describe('docs links', () => {
  it('scans the root README, docs/ and the example and package READMEs', () => {
    expect(files).toContain('README.md');
    expect(files).toContain('docs/README.md');
    expect(files.some((file) => file.startsWith('examples/'))).toBe(true);
    expect(files.some((file) => file.startsWith('packages/'))).toBe(true);
    expect(files.some((file) => file.includes('node_modules/') || file.includes('/dist/'))).toBe(false);
  });

  it.each(files)('%s: relative links and #anchors resolve; external links are well-formed', (file) => {
    expect(checkFileLinks(root, file, cache).map(formatProblem)).toEqual([]);
  });
});
