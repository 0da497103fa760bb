import { CommerceError, type Engine, type EngineOptions, type Order } from '@cartwright/core';
import { engineInternals } from '@cartwright/core/internal';
import type { Clock, PaymentProvider } from '@cartwright/core/providers';
import type { Repositories, Storage } from '@cartwright/core/storage';
import { stripeProvider } from '@cartwright/payments-stripe';
import { type FakeStripe, startFakeStripe } from '@cartwright/payments-stripe/fake-stripe';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { API_TARGETS, startApi, type TestApi } from './harness';
import { checkout, createCart, createProduct, expectStatus } from './order-fixtures';

export type { FakeStripe } from '@cartwright/payments-stripe/fake-stripe';

/** The Stripe webhook endpoint secret the tests configure and sign with. */
export const WEBHOOK_SECRET = 'whsec_cartwright_test_secret';

/** The Stripe provider pointed at the fake, verifying webhooks signed with `WEBHOOK_SECRET`. */
export function stripeForFake(fake: FakeStripe): PaymentProvider {
  return stripeProvider({
    secretKey: 'sk_test_cartwright',
    apiBase: fake.url,
    webhookSecret: WEBHOOK_SECRET,
  });
}

/** An error that stands for the process dying at that point. */
export class SimulatedCrash extends Error {
  constructor(where: string) {
    super(`simulated crash ${where}`);
  }
}

/** What the next `createPayment` of a {@link faultyProvider} does. */
export interface FaultPlan {
  /** `before`: dies before calling the provider; `after`: the provider charged, then the process died. */
  crash: 'before' | 'after' | null;
  /** Awaited before each provider call (to line concurrent checkouts up). */
  beforeCall: (() => Promise<void>) | null;
  /**
   * What the next `refundPayment` does: `before` / `after` as `crash`; `refuse`: Stripe declines
   * it (not called; answers `failed`); `pending`: Stripe refunds, but the answer is relabelled
   * `pending` — the refund really succeeded at Stripe, so reconciliation's `lookupRefund` finds it
   * `succeeded`. For refunds truly pending at Stripe, pay with `pm_card_pendingRefund` and finish
   * them with `fake.settleRefund` (see refunds-provider-pending.test.ts).
   */
  refund: 'before' | 'after' | 'refuse' | 'pending' | null;
  /** Awaited before each refund call reaches Stripe (to act while a refund is in flight). */
  beforeRefund: (() => Promise<void>) | null;
  /** `unavailable`: the next `cancelPayment` cannot reach Stripe (not called). */
  cancel: 'unavailable' | null;
}

/** Wraps a provider so tests can make `createPayment` crash before or after the real call. */
export function faultyProvider(inner: PaymentProvider): { provider: PaymentProvider; plan: FaultPlan } {
  const plan: FaultPlan = { crash: null, beforeCall: null, refund: null, beforeRefund: null, cancel: null };
  const provider: PaymentProvider = {
    ...inner,
    async createPayment(input) {
      const crash = plan.crash;
      plan.crash = null;
      if (crash === 'before') throw new SimulatedCrash('before the provider call');
      if (plan.beforeCall) await plan.beforeCall();
      const result = await inner.createPayment(input);
      if (crash === 'after') throw new SimulatedCrash('after the provider charged');
      return result;
    },
    async cancelPayment(input) {
      const fault = plan.cancel;
      plan.cancel = null;
      if (fault === 'unavailable')
        throw new CommerceError('payment_provider_unavailable', 'Stripe could not be reached');
      if (!inner.cancelPayment) throw new Error('the wrapped provider cannot cancel payments');
      return inner.cancelPayment(input);
    },
    async refundPayment(input) {
      const fault = plan.refund;
      plan.refund = null;
      if (fault === 'before') throw new SimulatedCrash('before the refund call');
      if (fault === 'refuse') {
        return {
          status: 'failed',
          provider_refund_id: null,
          failure_message: 'Charge ch_x has been disputed.',
        };
      }
      if (plan.beforeRefund) await plan.beforeRefund();
      const result = await inner.refundPayment(input);
      if (fault === 'after') throw new SimulatedCrash('after the provider refunded');
      if (fault === 'pending') return { ...result, status: 'pending' };
      return result;
    },
  };
  return { provider, plan };
}

/** A promise gate that opens once `count` callers wait on it. */
export function barrier(count: number): () => Promise<void> {
  let waiting = 0;
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return () => {
    waiting += 1;
    if (waiting >= count) open();
    return opened;
  };
}

/**
 * Makes the next transaction that inserts an order die before it commits (it rolls back), as a
 * crash of the process there would. The harness builds the engine's storage itself, so the hook
 * swaps the storage in the engine's service context; the returned function restores it.
 */
export function crashBeforeOrderCommit(engine: Engine): () => void {
  const ctx = engineInternals(engine).context;
  const original: Storage = ctx.storage;
  let armed = true;
  const wrapped: Storage = {
    migrate: () => original.migrate(),
    read: (fn) => original.read(fn),
    close: () => original.close(),
    transaction: (fn) =>
      original.transaction(async (tx) => {
        let wroteOrder = false;
        const result = await fn(watchOrderInserts(tx, () => (wroteOrder = true)));
        if (armed && wroteOrder) {
          armed = false;
          throw new SimulatedCrash('before the order transaction committed');
        }
        return result;
      }),
  };
  ctx.storage = wrapped;
  return () => {
    ctx.storage = original;
  };
}

function watchOrderInserts(tx: Repositories, onInsert: () => void): Repositories {
  const orders = new Proxy(tx.orders, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      if (prop === 'insert') {
        return (...args: unknown[]) => {
          onInsert();
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return value.bind(target);
    },
  });
  return new Proxy(tx, {
    get: (target, prop) => (prop === 'orders' ? orders : Reflect.get(target, prop, target)),
  });
}

/** What a Stripe API test block gets: the API (with the Stripe provider) and the fake Stripe. */
export interface StripeTestContext {
  api: TestApi;
  fake: FakeStripe;
  /** The fault plan of the registered `stripe` provider. */
  plan: FaultPlan;
  /** Moves the engine's clock forward (the fake Stripe and webhook signatures keep real time). */
  advance(ms: number): void;
}

/**
 * Runs `body` once per API target with a fake Stripe started first and the engine built with
 * `stripe` = the Stripe provider against the fake (wrapped by `faultyProvider`), on a clock that
 * follows real time until the block moves it forward (`advance`). `config`: engine settings
 * (e.g. the payment timeout).
 */
export function describeStripeApi(
  name: string,
  body: (ctx: () => StripeTestContext) => void,
  config: EngineOptions['config'] = {},
): void {
  for (const target of API_TARGETS) {
    describe(`${name} [${target}]`, () => {
      let current: (StripeTestContext & { close(): Promise<void> }) | undefined;
      beforeAll(async () => {
        const fake = await startFakeStripe();
        let offset = 0;
        const clock: Clock = { now: () => Date.now() + offset };
        const { provider, plan } = faultyProvider(stripeForFake(fake));
        const api = await startApi(target, { payments: [provider], clock, config });
        current = {
          api,
          fake,
          plan,
          advance: (ms) => {
            offset += ms;
          },
          close: async () => {
            await api.close();
            await fake.stop();
          },
        };
      }, 60_000);
      afterAll(async () => {
        await current?.close();
      });
      body(() => {
        if (!current) throw new Error('API not started');
        return current;
      });
    });
  }
}

/** Every order of the API (admin list, all pages). */
export async function allOrders(api: TestApi): Promise<Order[]> {
  const orders: Order[] = [];
  let after: string | null = null;
  for (;;) {
    const query: string = after === null ? '' : `&starting_after=${after}`;
    const page: { data: Order[]; has_more: boolean; next_cursor: string | null } = expectStatus(
      await api.get(`/v1/admin/orders?limit=100${query}`),
      200,
    ).body;
    orders.push(...page.data);
    if (!page.has_more) return orders;
    after = page.next_cursor;
  }
}

/**
 * The money invariant of provider checkouts (docs/contract.md#checkout): every successful charge at the fake belongs to exactly one
 * paid order (its completed Stripe payment has that PaymentIntent), or, with no order, was
 * refunded in full; and every completed Stripe payment of an order has its charge.
 */
export async function expectEveryChargeAccountedFor(api: TestApi, fake: FakeStripe): Promise<void> {
  const orders = await allOrders(api);
  const paidBy = new Map<string, string[]>();
  for (const order of orders) {
    for (const p of order.payments) {
      if (p.provider !== 'stripe' || p.provider_id === null) continue;
      if (p.status !== 'completed' && p.status !== 'refunded') continue;
      paidBy.set(p.provider_id, [...(paidBy.get(p.provider_id) ?? []), order.id]);
    }
  }
  const refunded = new Map<string, number>();
  for (const r of fake.refunds())
    refunded.set(r.payment_intent, (refunded.get(r.payment_intent) ?? 0) + r.amount);
  const charges = fake.charges();
  for (const charge of charges) {
    const holders = paidBy.get(charge.payment_intent) ?? [];
    const account =
      holders.length === 1
        ? 'one order'
        : holders.length === 0 && refunded.get(charge.payment_intent) === charge.amount
          ? 'refunded'
          : `unaccounted (orders: ${holders.length}, refunded: ${refunded.get(charge.payment_intent) ?? 0})`;
    expect({ intent: charge.payment_intent, account }).toEqual({
      intent: charge.payment_intent,
      account: holders.length === 1 ? 'one order' : 'refunded',
    });
  }
  const charged = new Set(charges.map((c) => c.payment_intent));
  for (const intent of paidBy.keys()) expect(charged.has(intent)).toBe(true);
}

/**
 * A paid Stripe order of `quantity` units at `price` (stock 10), with its PaymentIntent.
 * `paymentMethod` picks the fake's behaviour (`pm_card_pendingRefund`: its refunds stay pending).
 */
export async function paidStripeOrder(
  api: TestApi,
  price: number,
  quantity: number,
  paymentMethod = 'pm_card_visa',
) {
  const item = await createProduct(api, { price, on_hand: 10 });
  const cart = await createCart(api, [{ variant_id: item.variant_id, quantity }]);
  const order = expectStatus(
    await checkout(api, cart.id, {
      email: 'refunds@example.com',
      payment_provider: 'stripe',
      payment_method_id: paymentMethod,
    }),
    201,
  ).body;
  return { item, order, intent: order.payments[0].provider_id as string };
}

/** An order as the admin API shows it (200 expected). */
export function getOrder(api: TestApi, id: string) {
  return api.get(`/v1/admin/orders/${id}`).then((res) => expectStatus(res, 200).body);
}

/** Delivers a Stripe event to the webhook endpoint, signed with `secret` (no API key). */
export function deliverStripeEvent(api: TestApi, fake: FakeStripe, event: unknown, secret = WEBHOOK_SECRET) {
  const payload = JSON.stringify(event);
  return api.request('POST', '/v1/webhooks/stripe', {
    key: null,
    rawBody: payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': fake.signWebhook(payload, secret) },
  });
}
