import { startFakeStripe } from '@cartwright/payments-stripe/fake-stripe';
import { afterAll, expect, test } from 'vitest';
import { createConfiguredEngine, readConfig } from '../src/index';

const fake = await startFakeStripe();
afterAll(() => fake.stop());

const GUEST = { key_type: 'publishable', customer_id: null } as const;

/** An engine as `cartwright serve` builds it from these variables, with the demo catalog. */
async function engineWith(env: Record<string, string>) {
  const config = readConfig({ DATABASE_URL: ':memory:', COMMERCE_SEED: 'demo', ...env });
  const { engine } = await createConfiguredEngine(config, { skipKeys: true });
  return engine;
}

/** A guest checkout of one demo variant with `payment_provider`, through the engine's front door. */
async function checkoutWith(engine: Awaited<ReturnType<typeof engineWith>>, provider: string) {
  const store = engine.forStore(await engine.scopeFor('test'), GUEST);
  const page = await store.products.listStorefront({ limit: 1 });
  const variant = page.data[0]?.variants[0];
  if (variant === undefined) throw new Error('the demo catalog has no variant');
  const cart = await store.carts.create({
    items: [{ variant_id: variant.id, quantity: 1 }],
    shipping_address: { name: 'A', line1: '1 St', city: 'London', postal_code: 'N1', country: 'GB' },
  });
  return store.checkout(cart.id, {
    email: 'buyer@example.com',
    payment_provider: provider,
    payment_method_id: 'pm_card_visa',
  });
}

test('STRIPE_SECRET_KEY registers the Stripe provider (loaded on demand): a checkout charges the Stripe API', async () => {
  const engine = await engineWith({ STRIPE_SECRET_KEY: 'sk_test_cli', STRIPE_API_BASE: fake.url });
  try {
    const order = await checkoutWith(engine, 'stripe');
    expect(order.payments[0]?.provider).toBe('stripe');
    expect(fake.charges()).toHaveLength(1);
  } finally {
    await engine.close();
  }
});

test('without STRIPE_SECRET_KEY there is no Stripe provider: a Stripe checkout is refused and Stripe is never called', async () => {
  const engine = await engineWith({});
  const before = fake.requests.length;
  try {
    await expect(checkoutWith(engine, 'stripe')).rejects.toMatchObject({ code: 'parameter_invalid' });
    expect(fake.requests.length).toBe(before);
  } finally {
    await engine.close();
  }
});
