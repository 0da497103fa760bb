import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';

/**
 * Runs the curl commands the docs print (the API reference's lines, the walkthrough's steps) as
 * a reader would paste them: with `curl` itself when the machine has it, else replayed with fetch
 * from the parsed command line.
 */

/**
 * POSIX shell words of a command line: `\` + newline joins lines; single quotes keep everything;
 * double quotes keep everything but `\` before `"`, `\`, `$` or a backquote; words concatenate.
 * With `env`, `$NAME` and `${NAME}` outside single quotes are replaced by the variable's value (an
 * unset variable is an error, and so is an unquoted value the shell would split); without it a
 * `$` is an ordinary character.
 */
export function shellWords(line: string, env?: Readonly<Record<string, string>>): string[] {
  const words: string[] = [];
  let word: string | null = null;
  /** The variable at `line[i] === '$'`: its value and the index of its last character. */
  const variable = (i: number, quoted: boolean): { value: string; end: number } | undefined => {
    if (env === undefined) return undefined;
    const match = /^\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))/.exec(line.slice(i));
    if (match === null) return undefined;
    const name = (match[1] ?? match[2]) as string;
    const value = env[name];
    if (value === undefined) throw new Error(`$${name} is not set`);
    if (!quoted && /\s/.test(value)) throw new Error(`$${name} is unquoted and has white space: "${value}"`);
    return { value, end: i + match[0].length - 1 };
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (c === '\\' && line[i + 1] === '\n') {
      i++;
    } else if (c === ' ' || c === '\t' || c === '\n') {
      if (word !== null) words.push(word);
      word = null;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error('unterminated single quote');
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      word ??= '';
      for (i++; line[i] !== '"'; i++) {
        if (i >= line.length) throw new Error('unterminated double quote');
        const expanded = line[i] === '$' ? variable(i, true) : undefined;
        if (expanded !== undefined) {
          word += expanded.value;
          i = expanded.end;
          continue;
        }
        if (line[i] === '\\' && /["\\$`]/.test(line[i + 1] ?? '')) i++;
        word += line[i];
      }
    } else if (c === '\\') {
      word = (word ?? '') + (line[++i] ?? '');
    } else if (c === '$' && variable(i, false) !== undefined) {
      const expanded = variable(i, false) as { value: string; end: number };
      word = (word ?? '') + expanded.value;
      i = expanded.end;
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== null) words.push(word);
  return words;
}

/** Whether `curl` can be run on this machine. */
export const hasCurl = spawnSync('curl', ['--version'], { stdio: 'ignore' }).status === 0;

const run = promisify(execFile);

/** A response as curl showed it: the status and the body (parsed JSON, or `null` when empty). */
export interface CurlResult {
  status: number;
  body: unknown;
}

/** `curl`'s output with `-w '\n%{http_code}'` appended: the body, then the status on the last line. */
function parseOutput(stdout: string): CurlResult {
  const at = stdout.lastIndexOf('\n');
  const text = stdout.slice(0, Math.max(at, 0));
  return { status: Number(stdout.slice(at + 1)), body: text.trim() === '' ? null : JSON.parse(text) };
}

/**
 * Runs the words of a curl command: with curl itself (when the machine has it), or replayed with
 * fetch — `-X`, `-H` and `-d` (which makes a GET a POST, as curl does) are all it reads.
 */
export async function runCurl(
  args: readonly string[],
  via: 'curl' | 'fetch' = hasCurl ? 'curl' : 'fetch',
): Promise<CurlResult> {
  if (args[0] !== 'curl') throw new Error(`not a curl command: ${args.join(' ')}`);
  if (via === 'curl') {
    const { stdout } = await run('curl', [...args.slice(1), '-sS', '-w', '\n%{http_code}']);
    return parseOutput(stdout);
  }
  let method = 'GET';
  let url = '';
  let body: string | undefined;
  const headers = new Headers();
  for (let i = 1; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '-X') method = args[++i] as string;
    else if (arg === '-H') {
      const header = args[++i] as string;
      const colon = header.indexOf(':');
      headers.set(header.slice(0, colon).trim(), header.slice(colon + 1).trim());
    } else if (arg === '-d') {
      body = args[++i] as string;
      if (method === 'GET') method = 'POST';
    } else if (arg.startsWith('-')) throw new Error(`unexpected curl option ${arg}`);
    else url = arg;
  }
  const response = await fetch(url, { method, headers, ...(body === undefined ? {} : { body }) });
  const text = await response.text();
  return { status: response.status, body: text.trim() === '' ? null : JSON.parse(text) };
}

/**
 * Runs a curl command line as written, with the shell's own quoting and `$VARIABLES` from `env`:
 * through `sh -c` and curl when the machine has curl, else parsed by {@link shellWords} and
 * replayed with fetch. The line must be one curl command (no pipes, `;`, `&&` or `$(…)`).
 */
export async function runCurlLine(
  line: string,
  env: Readonly<Record<string, string>>,
  via: 'curl' | 'fetch' = hasCurl ? 'curl' : 'fetch',
): Promise<CurlResult> {
  if (!/^curl\s/.test(line) || /[|;&`]|\$\(/.test(line.replace(/'[^']*'/g, "''")))
    throw new Error(`not one plain curl command: ${line}`);
  if (via === 'fetch') return runCurl(shellWords(line, env), 'fetch');
  const { stdout } = await run('sh', ['-c', `${line} -sS -w '\\n%{http_code}'`], {
    env: { ...process.env, ...env },
  });
  return parseOutput(stdout);
}
