import { expect, it } from 'vitest';
import { hasCurl, runCurl, shellWords } from '../../../tools/docs-check/src/curl';
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

/** The page's curl line of an operation, with the running API's URL and real credentials. */
function commandFor(api: TestApi, operation: string): string[] {
  const line = curlLines(page).get(operation);
  if (line === undefined) throw new Error(`no curl line for ${operation}`);
  return shellWords(line).map((word) =>
    word
      .replace(EXAMPLE_BASE_URL, api.baseUrl)
      .replace(EXAMPLE_CREDENTIALS.secret, api.keys.secret)
      .replace(EXAMPLE_CREDENTIALS.publishable, api.keys.publishable),
  );
}

describeApi('curl lines of the reference page, run against a started API', (api) => {
  it(`POST /v1/admin/products, POST /v1/admin/shipping-methods, POST /v1/admin/discounts, PATCH /v1/admin/store, GET /v1/admin/products, POST /v1/admin/customers: 2xx (${hasCurl ? 'curl' : 'fetch'})`, async () => {
    for (const operation of [
      'POST /v1/admin/products',
      'POST /v1/admin/shipping-methods',
      'POST /v1/admin/discounts',
      'PATCH /v1/admin/store',
      'GET /v1/admin/products',
      'POST /v1/admin/customers',
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

  it('POST /v1/storefront/carts and …/checkout as pasted (no X-Customer-Token): a guest’s cart, then order', async () => {
    const product = await api().post('/v1/admin/products', {
      name: 'Tee',
      status: 'active',
      variants: [{ sku: 'TEE-CURL', price: 2500, inventory: { on_hand: 5 } }],
    });
    expect(product.status).toBe(200);
    const checkoutLine = curlLines(page).get('POST /v1/storefront/carts/{id}/checkout') ?? '';
    expect(checkoutLine).not.toContain('X-Customer-Token');
    expect(curlLines(page).get('POST /v1/storefront/carts')).not.toContain('X-Customer-Token');

    const cart = await runCurl(commandFor(api(), 'POST /v1/storefront/carts'));
    expect({ status: cart.status, body: cart.status < 300 ? 'ok' : cart.body }).toEqual({
      status: 200,
      body: 'ok',
    });
    const { id } = cart.body as { id: string };
    expect(cart.body).toMatchObject({ customer_id: null, session_id: expect.any(String) });
    const item = await api().post(`/v1/storefront/carts/${id}/items`, {
      variant_id: product.body.variants[0].id,
      quantity: 1,
    });
    expect(item.status).toBe(200);

    const exampleCartId = /\/carts\/(cart_\w+)\/checkout/.exec(checkoutLine)?.[1] as string;
    const order = await runCurl(
      commandFor(api(), 'POST /v1/storefront/carts/{id}/checkout').map((word) =>
        word.replace(exampleCartId, id),
      ),
    );
    expect({ status: order.status, body: order.status < 300 ? 'ok' : order.body }).toEqual({
      status: 201,
      body: 'ok',
    });
    expect(order.body).toMatchObject({
      customer_id: null,
      email: 'jenny.rosen@example.com',
      status: 'pending',
    });
  });
});
