import type { OrderAggregate, OrderListFilter, Page, PageRequest, Scope } from '../ports/storage';
import { refundToWire } from '../refunds/wire';
import type { ServiceContext } from '../shared/context';
import { CommerceError } from '../shared/errors';
import { byCreatedAt, pageOfSorted } from '../shared/loaded-page';
import { read } from '../shared/unit-of-work';
import type { AdminOrderListQuery, Order, StorefrontOrderListQuery } from './schemas';
import { orderToStorefrontWire, orderToWire } from './wire';

type OrderSort = 'created_at' | 'number' | 'total';

function pageOf(query: {
  limit: number;
  starting_after?: string | undefined;
  sort: OrderSort;
  order: 'asc' | 'desc';
}): PageRequest<OrderSort> {
  return { limit: query.limit, starting_after: query.starting_after, sort: query.sort, order: query.order };
}

function pageToWire(page: Page<OrderAggregate>, toWire: (order: OrderAggregate) => Order = orderToWire) {
  return { ...page, data: page.data.map((order) => toWire(order)) };
}

/** An order the storefront may show: not a draft (drafts are the merchant's work in progress). */
function visibleToStorefront(order: OrderAggregate | null): order is OrderAggregate {
  return order !== null && order.status !== 'draft';
}

/**
 * The answer to a `starting_after` the storage does not know (ports/storage/pagination.ts), word for
 * word: an id outside a list's scope gets it too.
 */
function unknownCursor(id: string): CommerceError {
  return new CommerceError('parameter_invalid', `No such object for starting_after: '${id}'`, {
    param: 'starting_after',
  });
}

/**
 * Order reads for the admin and the storefront (docs/contract.md#lists, #orders). One list query loads the page
 * with every order's lines, payments, fulfillments and refunds (no N+1).
 */
export function createOrderQueries(ctx: ServiceContext) {
  return {
    /** `GET /v1/admin/orders`: filters `status`, `payment_status`, `fulfillment_status`, `customer_id`, `email`, `q`, dates, `currency`, `region_id` (decisions §19). */
    async list(scope: Scope, query: AdminOrderListQuery) {
      const filter: OrderListFilter = {
        status: query.status,
        payment_status: query.payment_status,
        fulfillment_status: query.fulfillment_status,
        customer_id: query.customer_id,
        email: query.email,
        q: query.q,
        created_after: query.created_after,
        created_before: query.created_before,
        currency: query.currency,
        region_id: query.region_id,
      };
      return pageToWire(await read(ctx, (tx) => tx.orders.list(scope, filter, pageOf(query))));
    },

    /** `GET /v1/admin/orders/{id}`. */
    async get(scope: Scope, id: string) {
      const order = await read(ctx, (tx) => tx.orders.get(scope, id));
      if (!order) throw new CommerceError('not_found', `No such order: '${id}'`);
      return orderToWire(order);
    },

    /**
     * `GET /v1/admin/orders/{id}/refunds`: the order's refunds in a list envelope, paged like every
     * list (docs/contract.md#lists): newest first by default (`order=asc` for oldest first), `limit`,
     * `starting_after` (a refund of this order, else 400). The order holds its refunds, so a page
     * is cut from them in memory.
     */
    async listRefunds(scope: Scope, orderId: string, page: PageRequest<'created_at'>) {
      const refunds = await read(ctx, async (tx) => {
        const order = await tx.orders.get(scope, orderId);
        if (!order) throw new CommerceError('not_found', `No such order: '${orderId}'`);
        return order.refunds;
      });
      const sorted = [...refunds].sort(page.order === 'asc' ? byCreatedAt : (a, b) => byCreatedAt(b, a));
      const result = pageOfSorted(sorted, page, 'a refund of this order');
      return { ...result, data: result.data.map(refundToWire) };
    },

    /**
     * `GET /v1/storefront/orders` (CT): the signed-in customer's orders, never drafts, filtered by
     * `status`, `created_after`, `created_before`.
     */
    async listForCustomer(scope: Scope, customerId: string, query: StorefrontOrderListQuery) {
      const filter: OrderListFilter = {
        customer_id: customerId,
        exclude_drafts: true,
        status: query.status,
        created_after: query.created_after,
        created_before: query.created_before,
      };
      const page = await read(ctx, async (tx) => {
        // A cursor must be one of this list's own orders: another customer's order (or a draft)
        // is answered exactly as an unknown id, so `starting_after` tells nothing of its existence.
        const after = query.starting_after;
        if (after !== undefined) {
          const cursor = await tx.orders.get(scope, after);
          if (!visibleToStorefront(cursor) || cursor.customer_id !== customerId) throw unknownCursor(after);
        }
        return tx.orders.list(scope, filter, pageOf(query));
      });
      return pageToWire(page, orderToStorefrontWire);
    },

    /**
     * `GET /v1/storefront/orders/{id}` (CT): another customer's order, or a draft, is 404. The
     * signed-in customer's views show a pending payment's `client_secret` (3-D Secure), so the
     * storefront can resume authentication; the token-less guest lookup does not.
     */
    async getForCustomer(scope: Scope, customerId: string, id: string) {
      const order = await read(ctx, (tx) => tx.orders.get(scope, id));
      if (!visibleToStorefront(order) || order.customer_id !== customerId) {
        throw new CommerceError('not_found', `No such order: '${id}'`);
      }
      return orderToStorefrontWire(order);
    },

    /**
     * `GET /v1/storefront/orders/lookup?number=&email=` (no token): the order with that number
     * whose e-mail matches case-insensitively; 404 unless both match (the same answer whichever
     * is wrong, so numbers cannot be probed).
     */
    async lookup(scope: Scope, number: number, email: string) {
      const order = await read(ctx, (tx) => tx.orders.get(scope, { number }));
      if (!visibleToStorefront(order) || order.email.trim().toLowerCase() !== email.trim().toLowerCase()) {
        throw new CommerceError('not_found', 'No order matches this number and e-mail');
      }
      return orderToWire(order);
    },
  };
}
