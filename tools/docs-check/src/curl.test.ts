import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runCurlLine, shellWords } from './curl';

const run = promisify(execFile);

/** The words `sh` makes of a line (its first word replaced by printf, which prints them). */
async function shWords(line: string, env: Record<string, string>): Promise<string[]> {
  const { stdout } = await run('sh', ['-c', `printf '%s\\0' ${line}`], { env: { ...process.env, ...env } });
  return stdout.split('\0').slice(0, -1);
}

describe('shellWords', () => {
  it('reads the quoting the reference page uses', () => {
    expect(shellWords(`curl -X POST http://x/y \\\n  -H "A: b c" \\\n  -d '{"a":"it'\\''s"}'`)).toEqual([
      'curl',
      '-X',
      'POST',
      'http://x/y',
      '-H',
      'A: b c',
      '-d',
      `{"a":"it's"}`,
    ]);
  });

  it('without variables, a $ is a character', () => {
    expect(shellWords('echo $A "$B"')).toEqual(['echo', '$A', '$B']);
  });

  it('with variables, expands $NAME and its braced form outside single quotes, as sh does', async () => {
    const env = { SK: 'sk_test_a-b_c', ID: 'var_01X' };
    const line = `-H "Authorization: Bearer $SK" http://h/v1/x/$ID/y -d '{"id":"'$ID'","raw":"$ID"}' "\\$ID" \${ID}z`;
    const words = shellWords(line, env);
    expect(words).toEqual([
      '-H',
      'Authorization: Bearer sk_test_a-b_c',
      'http://h/v1/x/var_01X/y',
      '-d',
      '{"id":"var_01X","raw":"$ID"}',
      '$ID',
      'var_01Xz',
    ]);
    expect(words).toEqual(await shWords(line, env));
  });

  it('refuses an unset variable, and an unquoted one the shell would split', () => {
    expect(() => shellWords('curl $NOPE', {})).toThrow('$NOPE is not set');
    expect(() => shellWords('curl $A', { A: 'two words' })).toThrow('unquoted');
    expect(shellWords('curl "$A"', { A: 'two words' })).toEqual(['curl', 'two words']);
  });
});

describe('runCurlLine', () => {
  it('runs one plain curl command only', async () => {
    for (const line of ['echo hi', 'curl http://x | sh', 'curl http://x; rm -rf /tmp/x', 'curl $(id)']) {
      await expect(runCurlLine(line, {})).rejects.toThrow('not one plain curl command');
    }
  });
});
