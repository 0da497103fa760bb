import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import type { CodeBlock } from './code-blocks';

/**
 * The options the blocks are checked with: what a strict app of today compiles with
 * (`tsc --init` of TypeScript 5.9 turns on `noUncheckedIndexedAccess`, `exactOptionalPropertyTypes`
 * and `verbatimModuleSyntax`), every block a module (top-level `await` allowed), and
 * `moduleResolution: bundler`, one of the three settings the packages' `exports` need (docs/embedding.md#typescript-settings).
 * `@cartwright/*` resolve to the workspace's TypeScript sources (the `@cartwright/source`
 * condition), so the check needs no build and always sees the current API.
 */
export const BLOCK_COMPILER_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2023.d.ts'],
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  moduleDetection: ts.ModuleDetectionKind.Force,
  customConditions: ['@cartwright/source'],
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  verbatimModuleSyntax: true,
  esModuleInterop: true,
  skipLibCheck: true,
  noEmit: true,
  types: ['node'],
};

/** A compiled block's problems, as `file:line: TS1234 message` lines (empty when it compiles). */
export interface BlockResult {
  block: CodeBlock;
  /** The virtual file the block was compiled as (relative to the repository root). */
  virtualPath: string;
  problems: string[];
}

/** The name a block gives itself with a first line such as `// src/shop.ts`, if it does. */
export function blockFileName(code: string): string | undefined {
  const first = code.split('\n', 1)[0] ?? '';
  const name = /^\/\/ (\S+\.(?:ts|tsx|mts|cts))\s*$/.exec(first)?.[1];
  if (name === undefined || name.split('/').some((part) => part === '..' || part === '.')) return undefined;
  return name;
}

/**
 * Type-checks TypeScript code blocks in one program, in process: each block is a virtual module
 * file under `tools/docs-check/.blocks/<markdown path>/`, named by its first line when that is a
 * file comment (`// src/shop.ts`, so that blocks of one page can import each other as the page
 * says) or `block-L<line>.ts`. `context` is an extra virtual script of ambient declarations (the
 * names the docs use for what the reader already has, see doc-context.ts).
 *
 * Bare imports (`@cartwright/core`, `express`, `zod`, …) of a block resolve as from the
 * workspace's members, the first that has the package: tools/docs-check, then packages/*, then
 * examples/*, then the root. A package no member installs fails with "Cannot find module".
 */
export function compileBlocks(
  root: string,
  blocks: readonly CodeBlock[],
  context: string,
): { results: BlockResult[]; globalProblems: string[] } {
  const virtualRoot = join(root, 'tools/docs-check/.blocks');
  const contextPath = join(virtualRoot, 'doc-context.d.ts');
  const files = new Map<string, string>([[contextPath, context]]);
  const results: BlockResult[] = [];
  const owners = new Map<string, CodeBlock>();
  const globalProblems: string[] = [];
  for (const block of blocks) {
    const name = blockFileName(block.code) ?? `block-L${block.line}.ts`;
    const path = join(virtualRoot, block.file, name);
    const owner = owners.get(path);
    if (owner !== undefined) {
      globalProblems.push(
        `${block.file}:${block.line}: names the file ${name} that the block at line ${owner.line} names too`,
      );
      continue;
    }
    owners.set(path, block);
    files.set(path, block.code);
    results.push({ block, virtualPath: path.slice(root.length), problems: [] });
  }

  const options: ts.CompilerOptions = {
    ...BLOCK_COMPILER_OPTIONS,
    typeRoots: [join(root, 'node_modules/@types')],
  };
  const host = ts.createCompilerHost(options, true);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (path) => files.has(path) || fileExists.call(host, path);
  const directoryExists = host.directoryExists?.bind(host);
  host.directoryExists = (path) =>
    `${path}/`.startsWith(`${virtualRoot}/`) || (directoryExists?.(path) ?? true);
  host.readFile = (path) => files.get(path) ?? readFile.call(host, path);
  host.getSourceFile = (path, language, onError, create) => {
    const text = files.get(path);
    return text === undefined
      ? getSourceFile.call(host, path, language, onError, create)
      : ts.createSourceFile(
          path,
          text,
          language,
          true,
          path.endsWith('.d.ts') ? undefined : ts.ScriptKind.TS,
        );
  };
  host.getCurrentDirectory = () => root;

  const bases = resolutionBases(root);
  const cache = ts.createModuleResolutionCache(root, (name) => name, options);
  host.resolveModuleNameLiterals = (literals, containingFile, redirected, compilerOptions) =>
    literals.map((literal) => {
      const name = literal.text;
      const resolve = (from: string) =>
        ts.resolveModuleName(name, from, compilerOptions, host, cache, redirected, ts.ModuleKind.ESNext);
      if (!files.has(containingFile) || name.startsWith('.') || name.startsWith('/'))
        return resolve(containingFile);
      let first: ts.ResolvedModuleWithFailedLookupLocations | undefined;
      for (const base of bases) {
        const resolved = resolve(join(base, '__docs_check__.ts'));
        if (resolved.resolvedModule !== undefined) return resolved;
        first ??= resolved;
      }
      return first ?? resolve(containingFile);
    });

  const program = ts.createProgram({ rootNames: [...files.keys()], options, host });
  const format = (diagnostic: ts.Diagnostic) =>
    `TS${diagnostic.code} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
  for (const diagnostic of [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()])
    globalProblems.push(format(diagnostic));
  const contextFile = program.getSourceFile(contextPath);
  if (contextFile !== undefined) {
    for (const diagnostic of [
      ...program.getSyntacticDiagnostics(contextFile),
      ...program.getSemanticDiagnostics(contextFile),
    ])
      globalProblems.push(`doc-context: ${format(diagnostic)}`);
  }
  for (const result of results) {
    const sourceFile = program.getSourceFile(join(root, result.virtualPath));
    if (sourceFile === undefined) {
      result.problems.push('not compiled');
      continue;
    }
    for (const diagnostic of [
      ...program.getSyntacticDiagnostics(sourceFile),
      ...program.getSemanticDiagnostics(sourceFile),
    ]) {
      const offset = diagnostic.start ?? 0;
      const { line } = sourceFile.getLineAndCharacterOfPosition(offset);
      result.problems.push(`${result.block.file}:${result.block.line + 1 + line}: ${format(diagnostic)}`);
    }
  }
  return { results, globalProblems };
}

/** Directories bare imports of a block are resolved from, in order (see {@link compileBlocks}). */
export function resolutionBases(root: string): string[] {
  const members = (dir: string) =>
    readdirSync(join(root, dir), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(join(root, dir, entry.name, 'package.json')))
      .map((entry) => join(root, dir, entry.name))
      .sort();
  return [join(root, 'tools/docs-check'), ...members('packages'), ...members('examples'), root];
}
