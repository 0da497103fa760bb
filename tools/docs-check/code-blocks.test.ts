import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CodeBlock, extractCodeBlocks, isTypeScript } from './src/code-blocks';
import { type BlockResult, compileBlocks } from './src/compile-blocks';
import { DOC_CONTEXT } from './src/doc-context';
import { findDocFiles } from './src/doc-files';

/**
 * Every TypeScript block of README.md, docs/**\/*.md and the example and package READMEs compiles
 * as written: one program, in process, each block a module importing the workspace's packages
 * (their sources, so no build is needed), strict as a new app's tsconfig is, with
 * `moduleResolution: bundler` (see src/compile-blocks.ts). A block may use the few names of
 * src/doc-context.ts (the engine, the store's API, …) without declaring them. A block that cannot
 * compile on its own says why in a `<!-- docs-check: skip <reason> -->` line above it; those are
 * listed below, so that adding one is a visible decision.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const blocks: CodeBlock[] = findDocFiles(root).flatMap((file) =>
  extractCodeBlocks(file, readFileSync(join(root, file), 'utf8')),
);
const typescript = blocks.filter(isTypeScript);
const checked = typescript.filter((block) => block.skip === undefined);
const label = (block: CodeBlock) => `${block.file}:${block.line}`;

/**
 * Blocks of a page that is not in the repository, compiled in the same program: what the check
 * must refuse (each a mistake the docs once made) and what it must accept.
 */
const fixture = (line: number, code: string): CodeBlock => ({ file: 'fixture.md', line, lang: 'ts', code });
const fixtures = [
  fixture(1, "import type { PaymentProvider } from '@cartwright/core';\nexport type P = PaymentProvider;\n"),
  fixture(10, 'await store.customers.signIn({ email, password });\n'),
  fixture(20, "await store.products.make({ name: 'Tee' });\n"),
  fixture(
    30,
    "// src/shop.ts\nimport { createEngine } from '@cartwright/core';\nexport const made = createEngine;\n",
  ),
  fixture(
    40,
    "// src/app/route.ts\nimport { made } from '../shop';\nexport const ready = await made({ storage });\n",
  ),
  fixture(
    50,
    "import { expect, test } from 'vitest';\ntest('x', () => expect(engine.forStore(scope)).toBeDefined());\n",
  ),
];

let compiled: { results: Map<string, BlockResult>; globalProblems: string[] };

beforeAll(() => {
  const { results, globalProblems } = compileBlocks(root, [...checked, ...fixtures], DOC_CONTEXT);
  compiled = { results: new Map(results.map((result) => [label(result.block), result])), globalProblems };
}, 120_000);

describe('TypeScript code blocks of the docs', () => {
  it('finds the blocks of the README, docs/ and the package and example READMEs', () => {
    expect(checked.length).toBeGreaterThan(40);
    expect(checked.some((block) => block.file === 'README.md')).toBe(true);
    expect(checked.some((block) => block.file.startsWith('docs/guides/'))).toBe(true);
    expect(checked.some((block) => block.file.startsWith('packages/'))).toBe(true);
    expect(checked.some((block) => block.file.startsWith('examples/'))).toBe(true);
  });

  it('skips only the blocks listed here, each with its reason', () => {
    expect(typescript.filter((block) => block.skip !== undefined).map((b) => `${b.file}: ${b.skip}`)).toEqual(
      [
        'docs/guides/fetch-handler.md: Bun.serve and Deno.serve need those runtimes’ own type packages',
        'packages/core/src/operations/README.md: the entry as it stands in store.ts, which the build compiles',
      ],
    );
  });

  it('the program itself has no problem (options, the doc context)', () => {
    expect(compiled.globalProblems).toEqual([]);
  });

  it('refuses what does not compile (with the page’s line) and accepts what does', () => {
    const problems = (line: number) => compiled.results.get(`fixture.md:${line}`)?.problems;
    expect(problems(1)).toEqual([
      `fixture.md:2: TS2305 Module '"@cartwright/core"' has no exported member 'PaymentProvider'.`,
    ]);
    expect(problems(10)).toEqual([
      expect.stringMatching(
        /^fixture\.md:11: TS18004 No value exists in scope for the shorthand property 'email'/,
      ),
      expect.stringMatching(/^fixture\.md:11: TS18004 .*'password'/),
    ]);
    expect(problems(20)).toEqual([
      expect.stringMatching(/^fixture\.md:21: TS2339 Property 'make' does not exist/),
    ]);
    expect(problems(30)).toEqual([]);
    expect(problems(40)).toEqual([]); // imports the block above by the file name it gives itself
    expect(problems(50)).toEqual([]);
  });

  it.each(checked.map(label))('%s compiles', (name) => {
    expect(compiled.results.get(name)?.problems).toEqual([]);
  });
});

describe('JSON code blocks of the docs', () => {
  const json = blocks.filter((block) => block.lang === 'json');

  it.each(json.map((block) => [label(block), block] as const))('%s is JSON', (_name, block) => {
    expect(() => JSON.parse(block.code)).not.toThrow();
  });
});
