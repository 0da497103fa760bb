import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkFileLinks, formatProblem } from './check-links';
import { findDocFiles } from './doc-files';

let root: string;

function write(path: string, text: string): void {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'docs-check-'));
  write('README.md', '# Repo\n\n[Docs](docs/guide.md#setting-up) · [Example](examples/a/README.md)\n');
  write(
    'docs/guide.md',
    [
      '# Guide',
      '## Setting up',
      '[back](../README.md#repo) [self](#guide) [upper](#Setting-Up) [ref](api.html#post-v1-orders)',
      '[gone](moved.md) [bad anchor](../README.md#nope) [html anchor](api.html#nope) [dir](../examples/)',
      '[out](../../elsewhere.md) [bad url](https://[oops) [no host](http://) [ok](https://example.com/x?y=1#z)',
      '[mail](mailto:a@b.c) [line](../src/main.ts#L10) [encoded](my%20file.md) [query](my%20file.md?plain=1)',
    ].join('\n'),
  );
  write('docs/api.html', '<section id="post-v1-orders"></section>');
  write('docs/my file.md', '# Mine\n');
  write('src/main.ts', 'export {};\n');
  write('examples/a/README.md', '# A\n');
  write('examples/a/node_modules/x/README.md', '[broken](nowhere.md)\n');
  write('packages/p/dist/README.md', '[broken](nowhere.md)\n');
  write('packages/p/README.md', '# P\n');
  write('packages/p/notes.md', '[broken](nowhere.md)\n');
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('findDocFiles', () => {
  it('takes README.md, docs/**/*.md and READMEs under examples/ and packages/, skipping node_modules and dist', () => {
    expect(findDocFiles(root)).toEqual([
      'README.md',
      'docs/guide.md',
      'docs/my file.md',
      'examples/a/README.md',
      'packages/p/README.md',
    ]);
  });
});

describe('checkFileLinks', () => {
  it('accepts links whose files and anchors exist', () => {
    expect(checkFileLinks(root, 'README.md')).toEqual([]);
  });

  it('reports missing files, missing anchors, links leaving the repository and malformed URLs, with lines', () => {
    expect(checkFileLinks(root, 'docs/guide.md').map(formatProblem)).toEqual([
      'docs/guide.md:4 → moved.md: no such file: docs/moved.md',
      'docs/guide.md:4 → ../README.md#nope: no heading or id "#nope" in README.md',
      'docs/guide.md:4 → api.html#nope: no heading or id "#nope" in docs/api.html',
      'docs/guide.md:5 → ../../elsewhere.md: points outside the repository',
      'docs/guide.md:5 → https://[oops: malformed URL',
      'docs/guide.md:5 → http://: malformed URL',
    ]);
  });
});
