import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { renderApiReferenceHtml } from '../src/api-reference-html';
import { buildOpenApiDocument } from '../src/openapi';
import { EXAMPLE_BASE_URL, EXAMPLE_CREDENTIALS } from '../src/openapi-examples';
import { apiRoutes } from '../src/routes';
import { describeApi, type TestApi } from './api/support/harness';

// The curl lines of the reference page, copied from the page and run for real against
// a started API — with `curl` when the machine has it, else replayed with fetch from the parsed
// line — succeed, on SQLite and on PostgreSQL. Only the base URL and the credential placeholders
// are replaced; the method, path, headers and body are the page's.

const doc = JSON.parse(JSON.stringify(buildOpenApiDocument(apiRoutes))) as object;
const page = renderApiReferenceHtml(doc);

const unescapeHtml = (text: string) =>
  text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** The curl line of each operation on the page, by `METHOD path` (read from its section). */
function curlLines(html: string): Map<string, string> {
  const lines = new Map<string, string>();
  const section =
    /<section class="op" id="[^"]+"[^>]*>\s*<h3>.*?<span class="method [a-z]+">([A-Z]+)<\/span> <code class="path">([^<]+)<\/code>[\s\S]*?<pre class="curl"><code>([\s\S]*?)<\/code><\/pre>/g;
  for (const m of html.matchAll(section))
    lines.set(`${m[1]} ${unescapeHtml(m[2] as string)}`, unescapeHtml(m[3] as string));
  return lines;
}

/**
 * POSIX shell words of a command line: `\` + newline joins lines; single quotes keep everything;
 * double quotes keep everything but `\` before `"`, `\`, `$` or a backquote; words concatenate.
 */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
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
        if (line[i] === '\\' && /["\\$`]/.test(line[i + 1] ?? '')) i++;
        word += line[i];
      }
    } else if (c === '\\') {
      word = (word ?? '') + (line[++i] ?? '');
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== null) words.push(word);
  return words;
}

const hasCurl = spawnSync('curl', ['--version'], { stdio: 'ignore' }).status === 0;
const run = promisify(execFile);

interface Result {
  status: number;
  body: unknown;
}

/** Runs the words of a curl line: with curl itself (when the machine has it), or replayed with fetch. */
async function runCurl(args: string[], via: 'curl' | 'fetch' = hasCurl ? 'curl' : 'fetch'): Promise<Result> {
  expect(args[0]).toBe('curl');
  if (via === 'curl') {
    const { stdout } = await run('curl', [...args.slice(1), '-sS', '-w', '\n%{http_code}']);
    const at = stdout.lastIndexOf('\n');
    return { status: Number(stdout.slice(at + 1)), body: JSON.parse(stdout.slice(0, at)) };
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
  return { status: response.status, body: await response.json() };
}

/** The page's curl line of an operation, with the running API's URL and real credentials. */
function commandFor(api: TestApi, operation: string, customerToken?: string): string[] {
  const line = curlLines(page).get(operation);
  if (line === undefined) throw new Error(`no curl line for ${operation}`);
  return shellWords(line).map((word) =>
    word
      .replace(EXAMPLE_BASE_URL, api.baseUrl)
      .replace(EXAMPLE_CREDENTIALS.secret, api.keys.secret)
      .replace(EXAMPLE_CREDENTIALS.publishable, api.keys.publishable)
      .replace(EXAMPLE_CREDENTIALS.customerToken, customerToken ?? EXAMPLE_CREDENTIALS.customerToken),
  );
}

it('the shell word splitter reads the quoting the page uses', () => {
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

describeApi('curl lines of the reference page, run against a started API', (api) => {
  it(`POST /v1/admin/products, POST /v1/admin/shipping-methods, POST /v1/admin/discounts, PATCH /v1/admin/store, GET /v1/admin/products: 2xx (${hasCurl ? 'curl' : 'fetch'})`, async () => {
    for (const operation of [
      'POST /v1/admin/products',
      'POST /v1/admin/shipping-methods',
      'POST /v1/admin/discounts',
      'PATCH /v1/admin/store',
      'GET /v1/admin/products',
    ]) {
      const command = commandFor(api(), operation);
      const result = await runCurl(command);
      expect({ operation, status: result.status, body: result.status < 300 ? 'ok' : result.body }).toEqual({
        operation,
        status: 200,
        body: 'ok',
      });
    }
  });

  it('the product example is created as the example says', async () => {
    const products = await api().get('/v1/admin/products');
    expect(products.body.data).toEqual([
      expect.objectContaining({ name: 'Classic T-Shirt', slug: 'classic-t-shirt', status: 'draft' }),
    ]);
  });

  it('POST /v1/admin/customers, then POST /v1/storefront/carts with that customer’s token: 2xx', async () => {
    const customer = await runCurl(commandFor(api(), 'POST /v1/admin/customers'));
    expect(customer.status).toBe(200);
    const { id } = customer.body as { id: string };
    const token = await api().post(`/v1/admin/customers/${id}/token`, {});
    expect(token.status).toBe(200);
    const cart = await runCurl(commandFor(api(), 'POST /v1/storefront/carts', token.body.token));
    expect({ status: cart.status, body: cart.status < 300 ? 'ok' : cart.body }).toEqual({
      status: 200,
      body: 'ok',
    });
    expect(cart.body).toMatchObject({ customer_id: id, session_id: expect.any(String) });
  });

  it('the fetch replay of a line is the same request as curl’s (the first response, replayed)', async () => {
    const command = commandFor(api(), 'POST /v1/admin/products');
    const replayed = await runCurl(command, 'fetch');
    expect(replayed.status).toBe(200);
    const list = await api().get('/v1/admin/products');
    expect(list.body.data).toHaveLength(1);
    expect((replayed.body as { id: string }).id).toBe(list.body.data[0].id);
  });

  it('the same curl line again is the same request: the first response, replayed', async () => {
    const command = commandFor(api(), 'POST /v1/admin/shipping-methods');
    const again = await runCurl(command);
    expect(again.status).toBe(200);
    const list = await api().get('/v1/admin/shipping-methods');
    expect(list.body.data).toHaveLength(1);
    expect((again.body as { id: string }).id).toBe(list.body.data[0].id);
  });
});
