import autocannon, { type AutocannonOptions, type AutocannonRequestStep } from 'autocannon';
import { CHECKOUT_BODY, SHIPPING_ADDRESS } from '../fixture/carts';
import { createRandom } from '../lib/random';
import { type LatencySummary, Samples } from '../lib/stats';

/**
 * Load generation with autocannon, from the bench process, over loopback keep-alive connections
 * (one request in flight per connection: concurrency = connections, no pipelining).
 *
 * Latencies are recorded from autocannon's per-response `response` event (float milliseconds from
 * `process.hrtime`, measured from the write of the request to the end of the response), because
 * autocannon's own latency histogram rounds to whole milliseconds. Several URLs (several server
 * processes) are served round-robin: autocannon spreads the connections over them.
 */
export interface LoadResult {
  connections: number;
  seconds: number;
  requests: number;
  requests_per_second: number;
  /** Responses outside 2xx, and socket errors/timeouts. */
  non2xx: number;
  errors: number;
  latency: LatencySummary;
}

export interface FlowResult extends LoadResult {
  requests_per_flow: number;
  /** Completed checkouts (201). */
  flows: number;
  flows_per_second: number;
  /** From the cart creation request's start to the checkout response. */
  flow_latency: LatencySummary;
  /** Flows given up because a step failed (the connection then starts a new flow). */
  failed_flows: number;
}

export interface LoadOptions {
  urls: string[];
  connections: number;
  seconds: number;
}

interface Tally {
  requests: number;
  non2xx: number;
  samples: Samples;
}

async function run<C>(
  options: LoadOptions,
  extra: Omit<AutocannonOptions<C>, 'url' | 'connections' | 'duration'>,
): Promise<Tally & { seconds: number; errors: number }> {
  const tally: Tally = { requests: 0, non2xx: 0, samples: new Samples() };
  const started = performance.now();
  const instance = autocannon<C>({
    url: options.urls.length === 1 ? (options.urls[0] as string) : options.urls,
    connections: options.connections,
    duration: options.seconds,
    timeout: 30,
    ...extra,
  });
  instance.on('response', (_client: unknown, status: number, _bytes: number, responseTime: number) => {
    tally.requests++;
    if (status < 200 || status >= 300) tally.non2xx++;
    tally.samples.add(responseTime);
  });
  const result = await instance;
  return { ...tally, seconds: (performance.now() - started) / 1000, errors: result.errors };
}

function summary(options: LoadOptions, tally: Tally & { seconds: number; errors: number }): LoadResult {
  return {
    connections: options.connections,
    seconds: tally.seconds,
    requests: tally.requests,
    requests_per_second: tally.requests / tally.seconds,
    non2xx: tally.non2xx,
    errors: tally.errors,
    latency: tally.samples.summary(),
  };
}

/** The same GET again and again (the catalog list, the ceiling). */
export async function runGet(
  options: LoadOptions & { path: string; headers?: Record<string, string> },
): Promise<LoadResult> {
  const tally = await run(options, {
    method: 'GET',
    requests: [{ path: options.path, headers: options.headers ?? {} }],
  });
  return summary(options, tally);
}

/** What the storefront flow needs to know about the store. */
export interface FlowFixture {
  publishableKey: string;
  shippingMethodId: string;
  variantIds: string[];
}

interface FlowContext {
  start?: number | undefined;
  cartId?: string | undefined;
}

/** The cart id at the start of a Cart response body (`{"id":"cart_…",…`), without parsing it all. */
function cartIdOf(body: string): string | undefined {
  const at = body.indexOf('"id":"');
  if (at === -1) return undefined;
  const end = body.indexOf('"', at + 6);
  return end === -1 ? undefined : body.slice(at + 6, end);
}

/**
 * The storefront flow, 5 requests per order, each connection running flows back to back:
 * `POST /v1/storefront/carts` → `POST …/items` (variant A) → `POST …/items` (variant B, qty 2) →
 * `PATCH …/carts/{id}` (shipping address + method) → `POST …/checkout` (guest e-mail, manual
 * payment) = 201 Order. Variants are drawn at random from the fixture's sample.
 */
export async function runFlow(options: LoadOptions & { fixture: FlowFixture }): Promise<FlowResult> {
  const { fixture } = options;
  const random = createRandom(1234);
  const variant = () => fixture.variantIds[random.int(fixture.variantIds.length)] as string;
  const flowSamples = new Samples();
  let flows = 0;
  let failed = 0;
  const headers = { authorization: `Bearer ${fixture.publishableKey}`, 'content-type': 'application/json' };
  const patchBody = JSON.stringify({
    shipping_address: SHIPPING_ADDRESS,
    shipping_method_id: fixture.shippingMethodId,
  });
  const checkoutBody = JSON.stringify(CHECKOUT_BODY);

  const onCart = (status: number, body: string, context: FlowContext) => {
    context.cartId = status === 200 ? cartIdOf(body) : undefined;
    if (context.cartId === undefined) failed++;
  };
  const onStep = (status: number, _body: string, context: FlowContext) => {
    if (status !== 200) {
      context.cartId = undefined;
      failed++;
    }
  };
  const step = (method: string, suffix: string, body: () => string): AutocannonRequestStep<FlowContext> => ({
    method,
    headers,
    setupRequest(request, context) {
      if (context.cartId === undefined) return null; // restart the flow
      return { ...request, path: `/v1/storefront/carts/${context.cartId}${suffix}`, body: body() };
    },
    onResponse: onStep,
  });
  const requests: Array<AutocannonRequestStep<FlowContext>> = [
    {
      method: 'POST',
      path: '/v1/storefront/carts',
      headers,
      body: '{}',
      setupRequest(request, context) {
        context.start = performance.now();
        return request;
      },
      onResponse: onCart,
    },
    step('POST', '/items', () => JSON.stringify({ variant_id: variant(), quantity: 1 })),
    step('POST', '/items', () => JSON.stringify({ variant_id: variant(), quantity: 2 })),
    step('PATCH', '', () => patchBody),
    {
      ...step('POST', '/checkout', () => checkoutBody),
      onResponse(status, _body, context) {
        if (status === 201 && context.start !== undefined) {
          flows++;
          flowSamples.add(performance.now() - context.start);
        } else {
          failed++;
        }
      },
    },
  ];
  const tally = await run(options, { requests, initialContext: {} });
  const base = summary(options, tally);
  return {
    ...base,
    requests_per_flow: requests.length,
    flows,
    flows_per_second: flows / tally.seconds,
    flow_latency: flowSamples.summary(),
    failed_flows: failed,
  };
}
