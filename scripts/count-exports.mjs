#!/usr/bin/env node
// Counts the names a declaration file exports, as TypeScript sees them (re-exports resolved), and
// how many of them are values (the rest are types): the figures the public-surface work of issue 22
// reports. Usage, after a build: node scripts/count-exports.mjs packages/core/dist/index.d.ts
import ts from 'typescript';

const file = process.argv[2];
if (!file) {
  console.error('usage: node scripts/count-exports.mjs <file.d.ts>');
  process.exit(2);
}
const program = ts.createProgram([file], {
  strict: true,
  skipLibCheck: true,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
});
const checker = program.getTypeChecker();
const exported = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(file)));
const values = exported.filter((symbol) => {
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  return (target.flags & ts.SymbolFlags.Value) !== 0;
});
console.log(`${exported.length} exports; ${values.length} values`);
