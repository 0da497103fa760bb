import { CHECKOUT_BODY, SHIPPING_ADDRESS } from '../fixture/carts';
import { errorCode, expectOk, type Reply, runAll, type Send } from './client';

/** What the flash sale needs from a seeded store (the bench fixture's fields). */
export interface SaleStore {
  publishableKey: string;
  secretKey: string;
  shippingMethodId: string;
}

interface InventoryWire {
  id: string;
  variant_id: string;
  on_hand: number;
  reserved: number;
  available: number;
  track_inventory: boolean;
  allow_backorder: boolean;
}

/** The admin inventory record of a variant (`GET /v1/admin/inventory`, paged). */
export async function inventoryOfVariant(
  send: Send,
  store: SaleStore,
  variantId: string,
): Promise<InventoryWire> {
  let cursor: string | null = null;
  for (;;) {
    const page: { data: InventoryWire[]; next_cursor: string | null } = expectOk(
      await send(
        'GET',
        `/v1/admin/inventory?limit=100${cursor ? `&starting_after=${cursor}` : ''}`,
        undefined,
        store.secretKey,
      ),
      'list inventory',
    );
    const found = page.data.find((record) => record.variant_id === variantId);
    if (found) return found;
    if (!page.next_cursor) throw new Error(`no inventory record for variant ${variantId}`);
    cursor = page.next_cursor;
  }
}

export async function inventory(send: Send, store: SaleStore, id: string): Promise<InventoryWire> {
  return expectOk(
    await send('GET', `/v1/admin/inventory/${id}`, undefined, store.secretKey),
    'get inventory',
  );
}

/** Sets a variant's stock: tracked, no backorder, exactly `onHand` units on hand. */
export async function setStock(
  send: Send,
  store: SaleStore,
  id: string,
  onHand: number,
): Promise<InventoryWire> {
  return expectOk(
    await send(
      'PATCH',
      `/v1/admin/inventory/${id}`,
      { on_hand: onHand, track_inventory: true, allow_backorder: false },
      store.secretKey,
    ),
    'set stock',
  );
}

/** Orders in the store (`total_count` of `GET /v1/admin/orders`). */
export async function orderCount(send: Send, store: SaleStore): Promise<number> {
  const page: { total_count: number } = expectOk(
    await send('GET', '/v1/admin/orders?limit=1', undefined, store.secretKey),
    'list orders',
  );
  return page.total_count;
}

/**
 * `count` guest carts, each holding 1 unit of `variantId` with the shipping address and method:
 * `POST /v1/storefront/carts` (item + address) then `PATCH` (method). Adding to a cart checks the
 * stock but reserves nothing (docs/contract.md#inventory). Returns the cart ids.
 */
export async function prepareCarts(
  send: Send,
  store: SaleStore,
  variantId: string,
  count: number,
  concurrency: number,
): Promise<string[]> {
  const { results } = await runAll(
    Array.from({ length: count }, (_, i) => i),
    concurrency,
    async () => {
      const cart = expectOk<{ id: string }>(
        await send(
          'POST',
          '/v1/storefront/carts',
          { items: [{ variant_id: variantId, quantity: 1 }], shipping_address: SHIPPING_ADDRESS },
          store.publishableKey,
        ),
        'create cart',
      );
      expectOk(
        await send(
          'PATCH',
          `/v1/storefront/carts/${cart.id}`,
          { shipping_method_id: store.shippingMethodId },
          store.publishableKey,
        ),
        'set shipping method',
      );
      return cart.id;
    },
  );
  return results;
}

/** One buyer's checkout, as it came back (a socket error is status 0). */
export interface CheckoutReply {
  status: number;
  code: string | null;
  ms: number;
}

/** Every cart checks out exactly once (guest e-mail, manual payment), `concurrency` at a time. */
export async function checkoutAll(
  send: Send,
  store: SaleStore,
  cartIds: readonly string[],
  concurrency: number,
): Promise<{ replies: CheckoutReply[]; seconds: number }> {
  const { results, seconds } = await runAll(cartIds, concurrency, async (id): Promise<CheckoutReply> => {
    let reply: Reply;
    try {
      reply = await send('POST', `/v1/storefront/carts/${id}/checkout`, CHECKOUT_BODY, store.publishableKey);
    } catch (error) {
      return { status: 0, code: (error as Error).message, ms: Number.NaN };
    }
    return { status: reply.status, code: reply.status === 201 ? null : errorCode(reply.body), ms: reply.ms };
  });
  return { replies: results, seconds };
}
