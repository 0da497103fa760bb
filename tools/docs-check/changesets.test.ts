import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every changeset parses as `changeset version` will read it: a front matter between two `---`
 * lines whose entries are `'<package>': patch | minor | major` for a package of the workspace (YAML comment lines allowed). Biome's Markdown formatter once turned a one-package
 * front matter into a heading, which `changeset version` rejects only at release time.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const dir = join(root, '.changeset');
const files = readdirSync(dir).filter((name) => name.endsWith('.md') && name !== 'README.md');
const workspacePackages = new Set(
  readdirSync(join(root, 'packages')).map(
    (name) =>
      (JSON.parse(readFileSync(join(root, 'packages', name, 'package.json'), 'utf8')) as { name: string })
        .name,
  ),
);

/** The problems of one changeset's text; empty when it parses. */
export function changesetProblems(text: string): string[] {
  const lines = text.split('\n');
  if (lines[0]?.trim() !== '---') return ['does not start with a --- line'];
  const end = lines.findIndex((line, i) => i > 0 && line.trim() === '---');
  if (end < 0) return ['the front matter has no closing --- line'];
  const problems: string[] = [];
  let entries = 0;
  for (const raw of lines.slice(1, end)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const match = /^(['"]?)(@[\w-]+\/[\w-]+)\1:\s*(patch|minor|major)$/.exec(line);
    if (!match) problems.push(`not a '<package>': bump line: ${line}`);
    else if (!workspacePackages.has(match[2] as string))
      problems.push(`not a package of the workspace: ${match[2]}`);
    else entries++;
  }
  if (entries === 0 && problems.length === 0) problems.push('names no package');
  if (
    lines
      .slice(end + 1)
      .join('\n')
      .trim() === ''
  )
    problems.push('has no summary');
  return problems;
}

describe('changesets', () => {
  it('the check refuses what changeset version would refuse', () => {
    expect(changesetProblems("---\n\n'@cartwright/cli': patch\n\n# a comment\n\n---\n\nText.\n")).toEqual([]);
    expect(changesetProblems("---\n\n## '@cartwright/cli': patch\n\nText.\n")).toEqual([
      'the front matter has no closing --- line',
    ]);
    expect(changesetProblems("---\n'@cartwright/nope': minor\n---\n\nText.\n")).toEqual([
      'not a package of the workspace: @cartwright/nope',
    ]);
    expect(changesetProblems("---\n'@cartwright/cli': huge\n---\n\nText.\n")).toHaveLength(1);
  });

  it.each(files)('.changeset/%s parses', (file) => {
    expect(changesetProblems(readFileSync(join(dir, file), 'utf8'))).toEqual([]);
  });
});
