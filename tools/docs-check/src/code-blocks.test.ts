import { describe, expect, it } from 'vitest';
import { extractCodeBlocks, isTypeScript } from './code-blocks';
import { blockFileName } from './compile-blocks';

describe('extractCodeBlocks', () => {
  it('reads each fenced block with its line, language and text', () => {
    const source = [
      '# Title',
      '',
      '```ts',
      'const a = 1; // ``` inside is text',
      '```',
      '',
      '~~~~typescript title="x"',
      '```',
      'b();',
      '~~~~',
      '```sh',
      'echo hi',
      '```',
    ].join('\n');
    expect(extractCodeBlocks('a.md', source)).toEqual([
      { file: 'a.md', line: 3, lang: 'ts', code: 'const a = 1; // ``` inside is text\n' },
      { file: 'a.md', line: 7, lang: 'typescript', code: '```\nb();\n' },
      { file: 'a.md', line: 11, lang: 'sh', code: 'echo hi\n' },
    ]);
  });

  it('takes the fence’s indentation off a block in a list item', () => {
    const source = ['1. Step:', '', '   ```ts', '   const a = 1;', '     nested();', '   ```'].join('\n');
    expect(extractCodeBlocks('a.md', source)[0]?.code).toBe('const a = 1;\n  nested();\n');
  });

  it('reads the skip comment on the nearest non-blank line above the fence, with its reason', () => {
    const source = [
      '<!-- docs-check: skip needs Bun -->',
      '',
      '```ts',
      'Bun.serve();',
      '```',
      '<!-- docs-check: skip -->',
      '```ts',
      'x();',
      '```',
      '<!-- docs-check: skip far away -->',
      'Some text.',
      '```ts',
      'y();',
      '```',
    ].join('\n');
    expect(extractCodeBlocks('a.md', source).map((block) => block.skip)).toEqual([
      'needs Bun',
      '',
      undefined,
    ]);
  });

  it('a block left open runs to the end of the file', () => {
    expect(extractCodeBlocks('a.md', '```ts\nopen();\n')).toEqual([
      { file: 'a.md', line: 1, lang: 'ts', code: 'open();\n\n' },
    ]);
  });

  it('counts ts and typescript as TypeScript, nothing else', () => {
    const blocks = extractCodeBlocks('a.md', '```ts\n```\n```TypeScript\n```\n```js\n```\n```tsx\n```\n');
    expect(blocks.map(isTypeScript)).toEqual([true, true, false, false]);
  });
});

describe('blockFileName', () => {
  it('is the path of a first-line file comment', () => {
    expect(blockFileName('// src/app/v1/[...path]/route.ts\nexport {};\n')).toBe(
      'src/app/v1/[...path]/route.ts',
    );
    expect(blockFileName('// storage.conformance.test.ts\n')).toBe('storage.conformance.test.ts');
  });

  it('is undefined for other first lines and for paths that leave the page’s folder', () => {
    expect(blockFileName('// a comment about src/shop.ts\n')).toBeUndefined();
    expect(blockFileName('import x from "y"; // a.ts\n')).toBeUndefined();
    expect(blockFileName('// ../outside.ts\n')).toBeUndefined();
    expect(blockFileName('// open-storage.js\n')).toBeUndefined();
  });
});
