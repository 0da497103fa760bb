import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The root `pnpm start` command as a user runs it: the words of the root package.json's `start`
 * script (`node <flags…> packages/cli/dist/bin.js serve`, the built JavaScript — read, not
 * copied), spawned from the repository root with only environment configuration. The built
 * JavaScript comes from `pnpm install` (its postinstall `build:js`) or `pnpm build`; after
 * changing the sources, `pnpm build:js` refreshes it.
 */

export const REPOSITORY_ROOT = resolve(import.meta.dirname, '../../../..');

/** The words of the root `pnpm start` script after `node`. */
function startCommand(): string[] {
  const pkg = JSON.parse(readFileSync(join(REPOSITORY_ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const words = (pkg.scripts.start ?? '').trim().split(/\s+/);
  if (words[0] !== 'node') throw new Error(`the start script does not run node: ${pkg.scripts.start}`);
  const bin = words.find((w) => w.endsWith('.js'));
  if (!bin || !existsSync(join(REPOSITORY_ROOT, bin)))
    throw new Error(`${bin} is missing: build the JavaScript first (pnpm build:js)`);
  return words.slice(1);
}

export interface StartedServer {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>` as printed on the `listening on …` line. */
  url: string;
  /** Everything the server printed so far (stdout and stderr). */
  output(): string;
}

/**
 * Runs `pnpm start`'s command with `PORT=0`, `HOST=127.0.0.1` and `env`, resolved once it prints
 * `listening on …`; rejected if it exits first or does not listen within a minute.
 */
export function pnpmStart(env: Record<string, string>): Promise<StartedServer> {
  const child = spawn(process.execPath, startCommand(), {
    cwd: REPOSITORY_ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`pnpm start did not listen:\n${out}`));
    }, 60_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const url = out.match(/listening on (http:\/\/\S+)/)?.[1];
      if (url) {
        clearTimeout(timer);
        resolvePromise({ child, url, output: () => out });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(
        new Error(`pnpm start exited with ${code} (is the built JavaScript current? pnpm build:js):\n${out}`),
      );
    });
  });
}

/** SIGTERM (the server drains and exits), SIGKILL after 10 s; resolves when the process is gone. */
export function stopServer(child: ChildProcess): Promise<void> {
  return new Promise((resolvePromise) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolvePromise();
    child.once('exit', () => resolvePromise());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
  });
}
