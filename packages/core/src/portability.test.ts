import { execFile } from 'node:child_process';
import { randomBytes, scrypt } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

/**
 * Core is pure (docs/architecture.md, point 18): no file of it imports a Node built-in module, so
 * it loads in any runtime with Web Crypto (browsers, workers, Deno, Bun); what it needs of the
 * platform comes through its ports or web-standard globals.
 */

const SRC = fileURLToPath(new URL('.', import.meta.url));
const BUILTINS = new Set(builtinModules);

/** The Node built-in modules a source text imports, exports from, `import()`s or `require`s. */
function builtinImports(text: string): string[] {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((file) => file.fileName)
    .filter(
      (name) => name.startsWith('node:') || BUILTINS.has(name) || BUILTINS.has(name.split('/')[0] as string),
    );
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('core is runtime-neutral', () => {
  test('the check finds every form of a built-in import', () => {
    const text = [
      "import { AsyncLocalStorage } from 'node:async_hooks';",
      "import type { Stats } from 'fs';",
      "export * from 'fs/promises';",
      "const c = await import('crypto');",
      "const p = require('path');",
      "import { z } from 'zod';",
      "import { x } from './node-crypto';",
    ].join('\n');
    expect(builtinImports(text)).toEqual(['node:async_hooks', 'fs', 'fs/promises', 'crypto', 'path']);
  });

  test('no source file of core (tests aside) imports a Node built-in module', () => {
    const files = sourceFiles(SRC);
    expect(files.length).toBeGreaterThan(100);
    const offences = files.flatMap((file) =>
      builtinImports(readFileSync(file, 'utf8')).map((name) => `${relative(SRC, file)}: ${name}`),
    );
    expect(offences).toEqual([]);
  });

  test('core loads with only web-standard globals (no process, Buffer, setImmediate) and hashes passwords there with the pure-JavaScript scrypt', async () => {
    const password = 'correct horse battery staple';
    // A hash as core made it with node:crypto before the crypto port: it must verify there too.
    const salt = randomBytes(16);
    const key = await new Promise<Buffer>((resolve, reject) =>
      scrypt(password, salt, 32, { N: 2 ** 10, r: 8, p: 1 }, (error, derived) =>
        error ? reject(error) : resolve(derived),
      ),
    );
    const unpadded = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');
    const nodeHash = `$scrypt$ln=10,r=8,p=1$${unpadded(salt)}$${unpadded(key)}`;
    const script = `
      const host = globalThis.process;
      for (const name of ['process', 'Buffer', 'setImmediate', 'clearImmediate', 'global']) delete globalThis[name];
      const src = ${JSON.stringify(new URL('.', import.meta.url).href)};
      for (const entry of ['index.ts', 'providers.ts', 'storage.ts', 'schemas/index.ts']) await import(src + entry);
      const { createPasswordHasher } = await import(src + 'customers/passwords.ts');
      const hasher = createPasswordHasher({ ln: 10, r: 8, p: 1 });
      const hash = await hasher.hash(${JSON.stringify(password)});
      console.log(JSON.stringify({
        globals: [typeof process, typeof Buffer, typeof setImmediate],
        hash,
        verifies: await hasher.verify(${JSON.stringify(password)}, hash),
        wrong: await hasher.verify('wrong', hash),
        nodeHash: await hasher.verify(${JSON.stringify(password)}, ${JSON.stringify(nodeHash)}),
      }));
      host.exitCode = 0;
    `;
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '--eval', script],
        { cwd: fileURLToPath(new URL('..', import.meta.url)), timeout: 60_000 },
        (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out)),
      ),
    );
    const result = JSON.parse(stdout.trim().split('\n').at(-1) as string);
    expect(result.globals).toEqual(['undefined', 'undefined', 'undefined']);
    expect(result.hash).toMatch(/^\$scrypt\$ln=10,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(result).toMatchObject({ verifies: true, wrong: false, nodeHash: true });
  }, 60_000);
});
