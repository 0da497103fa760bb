import ts from 'typescript';
const file = process.argv[2];
const program = ts.createProgram([file], { strict: true, skipLibCheck: true, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler });
const checker = program.getTypeChecker();
const sf = program.getSourceFile(file);
const sym = checker.getSymbolAtLocation(sf);
const exps = checker.getExportsOfModule(sym);
console.log(exps.length, 'exports;', exps.filter(e => { const t = checker.getExportSymbolOfSymbol?.(e) ?? e; const a = e.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(e) : e; return (a.flags & (ts.SymbolFlags.Value)) !== 0; }).length, 'values');
