import { CommerceError } from '@cartwright/core';
import type { PaymentProvider, PaymentResult } from '@cartwright/core/providers';
import { afterEach, describe, expect, test } from 'vitest';
import { createTestEngine, type TestEngine } from './create-test-engine';
import { createScriptedProvider } from './scripted-provider.test-support';

/**
 * Checkout's answers to a provider's outcomes (docs/contract.md#checkout), for providers that
 * settle in process (one transaction, like `manual`) and for those called between two
 * transactions: a decline is 402 `payment_failed` with the decline code, a refusal is rethrown,
 * both leave the cart active, a `failed`/`cancelled` attempt and the units released.
 */

let t: TestEngine | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A provider that settles in process and answers `answer` (or throws it). */
function inProcess(answer: () => PaymentResult): PaymentProvider {
  return {
    name: 'voucher',
    requiresPaymentMethod: false,
    settlesInProcess: true,
    async createPayment() {
      return answer();
    },
    async refundPayment() {
      return { status: 'succeeded', provider_refund_id: null };
    },
  };
}

async function failureOf(promise: Promise<unknown>): Promise<CommerceError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(CommerceError.is(error), String(error)).toBe(true);
  return error as CommerceError;
}

async function cartOf(e: TestEngine, quantity = 2) {
  const { variant } = await e.fixtures.product({ price: 1000, on_hand: 5 });
  const cart = await e.fixtures.cart([{ variant_id: variant.id, quantity }]);
  return { cart, inventoryId: variant.inventory.id };
}

describe.each([
  ['in process (one transaction)', true],
  ['between two transactions', false],
] as const)('a provider called %s', (_label, oneTransaction) => {
  function engineWith(answer: () => PaymentResult) {
    if (oneTransaction) return createTestEngine({ providers: [inProcess(answer)] });
    const scripted = createScriptedProvider('voucher');
    scripted.createPayment = async () => answer();
    return createTestEngine({ providers: [scripted] });
  }

  test.each([
    ['failed', 'payment_failed', 'failed'],
    ['cancelled', 'payment_failed', 'cancelled'],
  ] as const)(
    'declined (%s): 402 payment_failed, the attempt recorded, the units released, the cart active',
    async (status, code, recorded) => {
      t = await engineWith(() => ({
        status,
        provider_id: 'v_1',
        failure_code: status === 'failed' ? 'voucher_expired' : null,
        failure_message: status === 'failed' ? 'This voucher has expired' : null,
      }));
      const { cart, inventoryId } = await cartOf(t);
      const error = await failureOf(t.checkout(cart.id, { payment_provider: 'voucher' }));
      expect(error.code).toBe(code);
      expect(error.message).toBe(
        status === 'failed' ? 'This voucher has expired' : 'The payment was declined',
      );
      expect(error.data).toMatchObject({
        payment_provider: 'voucher',
        decline_code: status === 'failed' ? 'voucher_expired' : null,
      });
      expect((await t.store.inventory.get(inventoryId)).reserved).toBe(0);
      expect((await t.store.carts.get(cart.id)).status).toBe('active');
      const failed = t.events.list('payment.failed');
      expect(failed).toHaveLength(1);
      expect(failed[0]?.data).toMatchObject({ status: recorded, order_id: null, provider: 'voucher' });
      expect((await t.store.orders.list()).data).toEqual([]);
    },
  );

  test('a refusal thrown by the provider is rethrown as is; the next attempt may succeed', async () => {
    let refuse = true;
    t = await engineWith(() => {
      if (refuse)
        throw new CommerceError('parameter_invalid', 'Unknown voucher', { param: 'payment_method_id' });
      return { status: 'succeeded', provider_id: 'v_2', amount: 2000 };
    });
    const { cart, inventoryId } = await cartOf(t);
    const error = await failureOf(t.checkout(cart.id, { payment_provider: 'voucher' }));
    expect([error.code, error.param, error.message]).toEqual([
      'parameter_invalid',
      'payment_method_id',
      'Unknown voucher',
    ]);
    expect((await t.store.inventory.get(inventoryId)).reserved).toBe(0);
    expect(t.events.list('payment.failed')[0]?.data).toMatchObject({ status: 'failed', order_id: null });

    refuse = false;
    const order = await t.checkout(cart.id, { payment_provider: 'voucher' });
    expect(order).toMatchObject({ payment_status: 'paid', total: { amount: 2000 } });
    expect((await t.store.inventory.get(inventoryId)).reserved).toBe(2);
  });
});
