import type { CodeBlock } from './code-blocks';

/**
 * A curl walkthrough page (docs/first-order-with-curl.md) read as a script. Its `sh` blocks hold
 * commands of four kinds, and nothing else:
 *
 * - the server start: `[NAME=value …] pnpm start`;
 * - a key the server printed: `export SK=sk_test_…` / `export PK=pk_test_…`;
 * - an id the reader copies from the last answer: `export NAME=<prefix>…  # the answer's <path>`,
 *   where `<path>` is written as in JavaScript (`id`, `variants[0].id`);
 * - a request: one `curl …` command (lines joined by a trailing `\`).
 *
 * A `json` block is the answer to the request before it, abridged.
 */
export type WalkthroughStep =
  | { kind: 'start'; line: number; env: Record<string, string> }
  | { kind: 'key'; line: number; name: string; prefix: string }
  | { kind: 'capture'; line: number; name: string; prefix: string; path: string }
  | { kind: 'request'; line: number; command: string }
  | { kind: 'answer'; line: number; json: unknown };

/** The steps of a walkthrough's blocks, in order; throws on a command it does not know. */
export function walkthroughSteps(blocks: readonly CodeBlock[]): WalkthroughStep[] {
  const steps: WalkthroughStep[] = [];
  for (const block of blocks) {
    if (block.lang === 'json') {
      steps.push({ kind: 'answer', line: block.line, json: JSON.parse(block.code) });
      continue;
    }
    if (block.lang !== 'sh') continue;
    for (const { line, text } of shellCommands(block)) {
      const start = /^((?:[A-Z_]+=\S+\s+)*)pnpm start$/.exec(text);
      const key = /^export (SK|PK)=((?:sk|pk)_test_)…(?:\s+#.*)?$/.exec(text);
      const capture = /^export ([A-Z_]+)=([a-z]+_)…\s+# the answer's ([\w.[\]]+)$/.exec(text);
      if (start !== null) {
        const env = Object.fromEntries(
          (start[1] as string)
            .trim()
            .split(/\s+/)
            .filter((word) => word !== '')
            .map((word) => [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]),
        );
        steps.push({ kind: 'start', line, env });
      } else if (key !== null) {
        steps.push({ kind: 'key', line, name: key[1] as string, prefix: key[2] as string });
      } else if (capture !== null) {
        steps.push({
          kind: 'capture',
          line,
          name: capture[1] as string,
          prefix: capture[2] as string,
          path: capture[3] as string,
        });
      } else if (/^curl\s/.test(text)) {
        steps.push({ kind: 'request', line, command: text });
      } else {
        throw new Error(`${block.file}:${line}: not a walkthrough command: ${text}`);
      }
    }
  }
  return steps;
}

/** The commands of a shell block with their 1-based lines: `\`-continued lines joined, comment and blank lines left out. */
function shellCommands(block: CodeBlock): { line: number; text: string }[] {
  const commands: { line: number; text: string }[] = [];
  const lines = block.code.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const first = i;
    let text = lines[i] as string;
    while (text.endsWith('\\') && i + 1 < lines.length) text = `${text}\n${lines[++i]}`;
    if (text.trim() === '' || text.trim().startsWith('#')) continue;
    commands.push({ line: block.line + 1 + first, text: text.trim() });
  }
  return commands;
}

/** The value at a JavaScript-style path (`variants[0].id`) of a JSON value; undefined if absent. */
export function valueAt(value: unknown, path: string): unknown {
  let current = value;
  for (const part of path.match(/[^.[\]]+/g) ?? []) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/**
 * Where an answer differs from its abridged form on the page: each key the page shows must be
 * there with a matching value (keys it leaves out are not looked at); arrays have the length
 * shown; a string ending in `…` matches any string that starts with what precedes it; any other
 * value must be equal. Returns the differences as `path: reason` (empty when it matches).
 */
export function abridgedMismatches(actual: unknown, shown: unknown, path = '$'): string[] {
  if (typeof shown === 'string' && shown.endsWith('…')) {
    const prefix = shown.slice(0, -1);
    return typeof actual === 'string' && actual.startsWith(prefix)
      ? []
      : [`${path}: ${JSON.stringify(actual)} does not start with ${JSON.stringify(prefix)}`];
  }
  if (Array.isArray(shown)) {
    if (!Array.isArray(actual)) return [`${path}: ${JSON.stringify(actual)} is not an array`];
    if (actual.length !== shown.length)
      return [`${path}: ${actual.length} items, the page shows ${shown.length}`];
    return shown.flatMap((item, i) => abridgedMismatches(actual[i], item, `${path}[${i}]`));
  }
  if (shown !== null && typeof shown === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual))
      return [`${path}: ${JSON.stringify(actual)} is not an object`];
    return Object.entries(shown).flatMap(([key, value]) =>
      key in actual
        ? abridgedMismatches((actual as Record<string, unknown>)[key], value, `${path}.${key}`)
        : [`${path}.${key}: missing`],
    );
  }
  return Object.is(actual, shown)
    ? []
    : [`${path}: ${JSON.stringify(actual)}, the page shows ${JSON.stringify(shown)}`];
}
