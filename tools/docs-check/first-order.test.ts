import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pnpmStart, type StartedServer, stopServer } from '../../packages/cli/test/support/pnpm-start';
import { extractCodeBlocks } from './src/code-blocks';
import { type CurlResult, hasCurl, runCurlLine, shellWords } from './src/curl';
import { abridgedMismatches, valueAt, type WalkthroughStep, walkthroughSteps } from './src/walkthrough';

/**
 * "Your first order with curl", run as a reader runs it: the page's `pnpm start` (the built CLI,
 * on a fresh SQLite file in a temporary directory instead of the page's path), the two keys it
 * prints, then every curl command of the page in order — through `sh` and curl when the machine
 * has curl, else parsed and replayed with fetch — with the ids the page says to copy taken from
 * the answers. Each answer must match the abridged one the page shows (src/walkthrough.ts), with a
 * 2xx status, or a 4xx when the page shows an error.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const PAGE = 'docs/first-order-with-curl.md';
const PAGE_BASE_URL = 'http://127.0.0.1:3000';
const steps = walkthroughSteps(extractCodeBlocks(PAGE, readFileSync(join(root, PAGE), 'utf8')));
const start = steps.find((step) => step.kind === 'start');
const run = promisify(execFile);

/** The words `sh` itself makes of a curl command line (the fetch replay must send the same). */
async function shWords(command: string, env: Record<string, string>): Promise<string[]> {
  const { stdout } = await run('sh', ['-c', command.replace(/^curl/, `printf '%s\\0' curl`)], {
    env: { ...process.env, ...env },
  });
  return stdout.split('\0').slice(0, -1);
}

const title = (step: WalkthroughStep): string => {
  switch (step.kind) {
    case 'start':
      return 'pnpm start';
    case 'key':
      return `export ${step.name}=${step.prefix}… (printed by pnpm start)`;
    case 'capture':
      return `export ${step.name}=${step.prefix}… (the answer's ${step.path})`;
    case 'request':
      return step.command.split('\n')[0]?.replace(/\s*\\$/, '') ?? '';
    case 'answer':
      return 'the answer as shown';
  }
};

describe(`${PAGE}, run as written (${hasCurl ? 'curl' : 'fetch'})`, () => {
  let dir: string;
  let server: StartedServer;
  const env: Record<string, string> = {};
  let last: { command: string; result: CurlResult } | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'first-order-'));
    server = await pnpmStart({
      ...(start?.kind === 'start' ? start.env : {}),
      DATABASE_URL: join(dir, 'shop.db'),
    });
  }, 90_000);

  afterAll(async () => {
    if (server !== undefined) await stopServer(server.child);
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it('is a script: the server start, its two keys, then each request followed by its answer', () => {
    expect(steps[0]).toEqual({
      kind: 'start',
      line: expect.any(Number),
      env: { DATABASE_URL: './.data/first-order.db' },
    });
    expect(
      steps.filter((step) => step.kind === 'key').map((step) => step.kind === 'key' && step.name),
    ).toEqual(['SK', 'PK']);
    steps.forEach((step, i) => {
      if (step.kind === 'request') expect(steps[i + 1]?.kind, `line ${step.line}`).toBe('answer');
      if (step.kind === 'answer') expect(steps[i - 1]?.kind, `line ${step.line}`).toBe('request');
    });
    const requests = steps.filter((step) => step.kind === 'request');
    expect(requests.length).toBeGreaterThanOrEqual(10);
    for (const step of requests) expect(step.command, `line ${step.line}`).toContain(PAGE_BASE_URL);
  });

  for (const step of steps) {
    if (step.kind === 'start') continue;
    it(`line ${step.line}: ${title(step)}`, async () => {
      if (step.kind === 'key') {
        const printed = new RegExp(`^\\s+(${step.prefix}\\S+)$`, 'm').exec(server.output())?.[1];
        expect(printed, server.output()).toBeDefined();
        env[step.name] = printed as string;
      } else if (step.kind === 'capture') {
        const value = valueAt(last?.result.body, step.path);
        expect(value).toEqual(expect.stringMatching(new RegExp(`^${step.prefix}`)));
        env[step.name] = value as string;
      } else if (step.kind === 'request') {
        const command = step.command.replaceAll(PAGE_BASE_URL, server.url);
        if (hasCurl) expect(shellWords(command, env)).toEqual(await shWords(command, env));
        last = { command: step.command, result: await runCurlLine(command, env) };
      } else if (step.kind === 'answer') {
        expect(last).toBeDefined();
        const { result, command } = last as { command: string; result: CurlResult };
        const error = step.json !== null && typeof step.json === 'object' && 'error' in step.json;
        expect(
          {
            command,
            status: error
              ? result.status >= 400 && result.status < 500
              : result.status >= 200 && result.status < 300,
          },
          JSON.stringify(result.body),
        ).toEqual({ command, status: true });
        expect(abridgedMismatches(result.body, step.json)).toEqual([]);
      }
    });
  }
});
