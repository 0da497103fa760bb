import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Folders never scanned: installed packages, build output, and hidden folders (`.git`, `.data`). */
const SKIPPED = new Set(['node_modules', 'dist', 'coverage']);

/**
 * The Markdown files whose links are checked, as sorted `/`-separated paths relative to `root`:
 * `README.md`, every `docs/**\/*.md`, and every `README.md` under `examples/` and `packages/`.
 */
export function findDocFiles(root: string): string[] {
  const files = new Set<string>();
  if (listDir(root).some((entry) => entry.name === 'README.md' && entry.isFile())) files.add('README.md');
  for (const file of walk(root, 'docs')) if (file.endsWith('.md')) files.add(file);
  for (const top of ['examples', 'packages']) {
    for (const file of walk(root, top)) if (file.split('/').at(-1) === 'README.md') files.add(file);
  }
  return [...files].sort();
}

/** Every file under `root/dir`, recursively, skipping {@link SKIPPED} and hidden folders. */
function walk(root: string, dir: string): string[] {
  const out: string[] = [];
  for (const entry of listDir(join(root, dir))) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!SKIPPED.has(entry.name) && !entry.name.startsWith('.')) out.push(...walk(root, path));
    } else if (entry.isFile()) out.push(path);
  }
  return out;
}

function listDir(path: string) {
  try {
    return readdirSync(path, { withFileTypes: true });
  } catch {
    return [];
  }
}
