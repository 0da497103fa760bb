#!/usr/bin/env node
// The size of the storage port (packages/core/src/ports/storage), as the TypeScript compiler parses
// it: the repositories (interfaces named `*Repository`) with their methods (distinct member names,
// so an overloaded `get` counts once), all interfaces, the record interfaces (records.ts), the
// members of `Storage`, and the lines of every file of the port. The before/after figures of the
// storage-contract work (issue 23) come from here.
// Usage: node scripts/port-size.mjs [--at <commit>] [--json]   (--at reads the port as committed)
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const portDir = 'packages/core/src/ports/storage';
const atIndex = process.argv.indexOf('--at');
const at = atIndex >= 0 ? process.argv[atIndex + 1] : null;
const isPortFile = (path) => path.endsWith('.ts') && !path.endsWith('.test.ts');

/** Every .ts file of the port (repository-relative), subfolders included (a split keeps the count). */
function files(folder) {
  if (at) {
    const listed = execFileSync('git', ['ls-tree', '-r', '--name-only', at, '--', `${portDir}/`], {
      cwd: root,
      encoding: 'utf8',
    });
    return listed.split('\n').filter(isPortFile);
  }
  return readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return files(path);
    return isPortFile(entry.name) ? [path] : [];
  });
}

const read = (path) =>
  at
    ? execFileSync('git', ['show', `${at}:${path}`], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26 })
    : readFileSync(join(root, path), 'utf8');

const memberName = (member) =>
  member.name && (ts.isIdentifier(member.name) || ts.isStringLiteral(member.name)) ? member.name.text : null;

const repositories = [];
const interfaces = [];
const recordInterfaces = [];
let storage = null;
let lines = 0;
let typeAliases = 0;
let recordAliases = 0;
const perFile = [];

for (const path of files(portDir).sort()) {
  const text = read(path);
  const fileLines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  lines += fileLines;
  const entry = { file: path, lines: fileLines, interfaces: 0 };
  perFile.push(entry);
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const isRecords = path.endsWith('/records.ts');
  ts.forEachChild(source, (node) => {
    if (ts.isTypeAliasDeclaration(node)) {
      typeAliases += 1;
      if (isRecords) recordAliases += 1;
    }
    if (!ts.isInterfaceDeclaration(node)) return;
    const name = node.name.text;
    interfaces.push(name);
    entry.interfaces += 1;
    if (isRecords) recordInterfaces.push(name);
    const members = [...new Set(node.members.map(memberName).filter((m) => m !== null))];
    if (name.endsWith('Repository')) repositories.push({ name, methods: members });
    if (name === 'Storage') storage = members;
  });
}

const methods = repositories.reduce((sum, repository) => sum + repository.methods.length, 0);
const result = {
  repositories: repositories.length,
  methods,
  per_repository: Object.fromEntries(repositories.map((r) => [r.name, r.methods.length])),
  interfaces: interfaces.length,
  record_interfaces: recordInterfaces.length,
  type_aliases: typeAliases,
  record_type_aliases: recordAliases,
  storage_members: storage ?? [],
  lines,
  files: perFile,
};

if (process.argv.includes('--json')) {
  console.log(JSON.stringify(result, null, 2));
} else {
  console.log(`Storage port (${portDir}${at ? ` at ${at}` : ''})`);
  for (const r of repositories) console.log(`  ${r.name.padEnd(26)} ${String(r.methods.length).padStart(3)}`);
  console.log(`repositories: ${result.repositories}; methods: ${methods}`);
  const perFileInterfaces = perFile.map((f) => `${f.file.split('/').pop()} ${f.interfaces}`).join(', ');
  console.log(
    `interfaces: ${result.interfaces} (${perFileInterfaces}); record interfaces: ${result.record_interfaces}`,
  );
  console.log(`type aliases: ${typeAliases} (records.ts: ${recordAliases})`);
  console.log(`Storage members: ${result.storage_members.length} (${result.storage_members.join(', ')})`);
  console.log(`lines: ${lines} (${perFile.map((f) => `${f.file.split('/').pop()} ${f.lines}`).join(', ')})`);
}
