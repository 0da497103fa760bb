import type { Order, Return } from '@headless-commerce/sdk';
import { expect, test } from 'vitest';
import { describeApi, type TestApi } from '../api/support/harness';
import {
  checkout,
  createCart,
  createCustomer,
  createProduct,
  expectStatus,
  payOrder,
} from '../api/support/order-fixtures';
import { expectSdkError, isoDate, sdkClients, tickingClock, usd } from './support';

/**
 * The public client's 12 `returns.*` methods (decisions §18), unmodified, against the served
 * API (real HTTP on a loopback port, every engine): 8 admin methods (`adminList`, `adminGet`,
 * `adminCreate`, `adminApprove`, `adminReject`, `adminReceive`, `adminComplete`, `adminCancel`)
 * and the storefront's 4 (`list`, `get`, `create`, `cancel`) with the customer's token. The
 * SDK's types win over its doc-comment examples: `return_type` (not `type`), `admin_notes` (not
 * `note`), no `pending` status.
 */

/** A customer's paid order of `quantity` units at 1500, every unit shipped; and the customer's storefront client. */
async function shippedOrder(a: TestApi, quantity = 3) {
  const product = await createProduct(a, { price: 1500, on_hand: 10 });
  const customer = await createCustomer(a);
  const cart = await createCart(a, [{ variant_id: product.variant_id, quantity }], {
    customerToken: customer.token,
  });
  const placed = expectStatus(
    await checkout(a, cart.id, { payment_provider: 'manual' }, { customerToken: customer.token }),
    201,
  ).body;
  const order: Order = await payOrder(a, placed);
  const { admin } = sdkClients(a);
  const line = order.lines[0]!;
  const f = await admin.fulfillments.adminCreate(order.id, { lines: [{ order_line_id: line.id, quantity }] });
  await admin.fulfillments.adminShip(f.id);
  return { order, line, customer, product, client: sdkClients(a).storefrontAs(customer.token) };
}

/** Our Return beyond the SDK's type: `customer_id`, `rejected_at`, `cancelled_at`, `lines` always present. */
type OurReturn = Return & {
  customer_id: string | null;
  rejected_at: string | null;
  cancelled_at: string | null;
  lines: NonNullable<Return['lines']>;
};

describeApi(
  'sdk: returns.* (decisions §18)',
  (api) => {
    test('storefront create → admin approve → receive → complete: a refund of what was paid, stock back, the order returned', async () => {
      const a = api();
      const { admin } = sdkClients(a);
      const { order, line, client, product } = await shippedOrder(a);

      const requested = (await client.returns.create(order.id, {
        return_type: 'refund',
        reason: 'Wrong size received',
        reason_category: 'wrong_item',
        customer_notes: 'Box unopened',
        lines: [{ order_line_id: line.id, quantity: 3, condition: 'unopened' }],
      })) as OurReturn;
      expect(requested).toMatchObject({
        order_id: order.id,
        status: 'requested',
        return_type: 'refund',
        reason: 'Wrong size received',
        reason_category: 'wrong_item',
        customer_notes: 'Box unopened',
        admin_notes: null,
        refund_id: null,
        exchange_order_id: null,
        metadata: {},
        created_at: isoDate,
        updated_at: isoDate,
        approved_at: null,
        received_at: null,
        completed_at: null,
      });
      expect(requested.store_id).toMatch(/^store_/);
      expect(requested.lines).toEqual([
        {
          id: expect.stringMatching(/^retl_/),
          order_line_id: line.id,
          quantity: 3,
          reason: null,
          condition: 'unopened',
          exchange_variant_id: null,
          product_name: line.product_name,
        },
      ]);
      expect(await client.returns.get(requested.id)).toEqual(requested);
      expect((await client.returns.list()).data.map((r) => r.id)).toEqual([requested.id]);

      const approved = await admin.returns.adminApprove(requested.id, {
        admin_notes: 'Approved for full refund',
      });
      expect(approved).toMatchObject({
        status: 'approved',
        admin_notes: 'Approved for full refund',
        approved_at: isoDate,
      });
      const received = await admin.returns.adminReceive(requested.id, { admin_notes: 'All items inspected' });
      expect(received).toMatchObject({ status: 'received', received_at: isoDate });
      const completed = await admin.returns.adminComplete(requested.id);
      expect(completed).toMatchObject({
        status: 'completed',
        completed_at: isoDate,
        refund_id: expect.stringMatching(/^ref_/),
      });
      expect(await admin.returns.adminGet(requested.id)).toEqual(completed);

      const after = await admin.orders.adminGet(order.id);
      expect(after).toMatchObject({ payment_status: 'refunded', fulfillment_status: 'returned' });
      expect(after.refunds?.[0]).toMatchObject({
        id: completed.refund_id,
        amount: usd(4500),
        restock: false,
      });
      const stock = await admin.inventory.adminGet(product.inventory_id);
      expect(stock).toMatchObject({ on_hand: 10, reserved: 0 });

      // Completed is final; the admin list finds it by status and order.
      await expectSdkError(admin.returns.adminComplete(requested.id), 409, 'invalid_state_transition');
      const listed = await admin.returns.adminList({ status: 'completed', order_id: order.id });
      expect(listed.data.map((r) => r.id)).toEqual([requested.id]);
      expect(listed).toMatchObject({ has_more: false });
    });

    test('adminCreate (approved), adminReject after receipt, adminCancel, storefront cancel; errors through the SDK', async () => {
      const a = api();
      const { admin } = sdkClients(a);
      const { order, line, client } = await shippedOrder(a, 2);

      const created = await admin.returns.adminCreate(order.id, {
        reason: 'Defective product',
        lines: [{ order_line_id: line.id, quantity: 1 }],
      });
      expect(created).toMatchObject({ status: 'approved', approved_at: created.created_at });
      await admin.returns.adminReceive(created.id);
      const rejected = (await admin.returns.adminReject(created.id, {
        admin_notes: 'Used beyond return policy',
      })) as OurReturn;
      expect(rejected).toMatchObject({
        status: 'rejected',
        admin_notes: 'Used beyond return policy',
        rejected_at: isoDate,
      });

      const another = await admin.returns.adminCreate(order.id, {
        lines: [{ order_line_id: line.id, quantity: 2 }],
      });
      const cancelled = (await admin.returns.adminCancel(another.id)) as OurReturn;
      expect(cancelled).toMatchObject({ status: 'cancelled', cancelled_at: isoDate });

      const mine = await client.returns.create(order.id, {
        lines: [{ order_line_id: line.id, quantity: 2 }],
      });
      // Both units are held: nothing more to return.
      const over = await expectSdkError(
        admin.returns.adminCreate(order.id, { lines: [{ order_line_id: line.id, quantity: 1 }] }),
        422,
        'quantity_exceeds_returnable',
      );
      expect(over.message).toContain('0 returnable units');
      expect((await client.returns.cancel(mine.id)).status).toBe('cancelled');
      await expectSdkError(client.returns.cancel(mine.id), 409, 'invalid_state_transition');

      // The doc-comment names are not ours: `type` is an unknown field (the SDK passes the body through).
      await expectSdkError(
        admin.returns.adminCreate(order.id, {
          lines: [{ order_line_id: line.id, quantity: 1 }],
          type: 'refund',
        } as never),
        400,
        'parameter_unknown',
      );
      // Another customer's order and return: 404 through the storefront.
      const stranger = await createCustomer(a);
      const theirs = sdkClients(a).storefrontAs(stranger.token);
      await expectSdkError(
        theirs.returns.create(order.id, { lines: [{ order_line_id: line.id, quantity: 1 }] }),
        404,
        'not_found',
      );
      await expectSdkError(theirs.returns.get(mine.id), 404, 'not_found');
      expect((await theirs.returns.list()).data).toEqual([]);
      // No token: 401.
      await expectSdkError(sdkClients(a).storefront.returns.list(), 401, 'customer_token_required');

      const all = await admin.returns.adminList({ order_id: order.id, limit: 2 });
      expect(all.data).toHaveLength(2);
      expect(all.has_more).toBe(true);
      expect(all.data[0]!.id).toBe(mine.id);
    });
  },
  { clock: tickingClock() },
);
