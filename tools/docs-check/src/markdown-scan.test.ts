import { describe, expect, it } from 'vitest';
import { scanMarkdown } from './markdown-scan';

const source = [
  '# Title', // 1
  '', // 2
  'See [concepts](concepts.md#keys) and ![diagram](img/flow.png "Flow").', // 3
  'Nested parens: [wiki](https://en.wikipedia.org/wiki/Cart_(disambiguation)) and <https://example.com/a>.', // 4
  'Code: `[not](a-link.md)` stays text.', // 5
  '', // 6
  '```md', // 7
  '[inside](fenced.md)', // 8
  '## Not a heading', // 9
  '```', // 10
  '', // 11
  'Setext heading', // 12
  '--------------', // 13
  '', // 14
  '## 2. Mount the `/v1` API', // 15
  '<a id="custom-anchor"></a>', // 16
  '[ref]: <guides/my guide.md>', // 17
  '[spaced]( ../README.md )', // 18
].join('\n');

describe('scanMarkdown', () => {
  const scan = scanMarkdown(source);

  it('finds inline links, images, autolinks and reference definitions with their lines; not those in code', () => {
    expect(scan.links).toEqual([
      { target: 'concepts.md#keys', line: 3 },
      { target: 'img/flow.png', line: 3 },
      { target: 'https://en.wikipedia.org/wiki/Cart_(disambiguation)', line: 4 },
      { target: 'https://example.com/a', line: 4 },
      { target: 'guides/my guide.md', line: 17 },
      { target: '../README.md', line: 18 },
    ]);
  });

  it('collects ATX and setext heading slugs (repeats numbered) and HTML ids, not headings in code', () => {
    expect([...scan.anchors]).toEqual(['title', 'setext-heading', '2-mount-the-v1-api', 'custom-anchor']);
    const repeated = scanMarkdown('# Setup\n\n## Setup\n');
    expect([...repeated.anchors]).toEqual(['setup', 'setup-1']);
  });

  it('a ~~~ fence is closed only by ~~~ of at least its length', () => {
    const fenced = scanMarkdown(['~~~~', '```', '[x](x.md)', '~~~', '~~~~', '[y](y.md)'].join('\n'));
    expect(fenced.links).toEqual([{ target: 'y.md', line: 6 }]);
  });
});
