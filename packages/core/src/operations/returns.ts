import {
  AdminReturnCreateSchema,
  AdminReturnListQuerySchema,
  IdPathSchema,
  NoInputSchema,
  ReturnActionSchema,
  ReturnListSchema,
  ReturnReceiveSchema,
  ReturnSchema,
  StorefrontReturnCreateSchema,
  StorefrontReturnListQuerySchema,
} from '../schemas';
import { signedIn } from './call';
import { defineOperation } from './operation';

const adminTags = ['Returns'] as const;
const storefrontTags = ['Storefront returns'] as const;

const CREATE_RULES =
  'Body: `return_type` (`refund` default | `exchange`), `reason`, `reason_category`, `customer_notes`, `lines` ' +
  '(1..250, each order line once: `order_line_id`, `quantity` ≥ 1, `reason`, `condition`, `exchange_variant_id`). ' +
  'The order must be neither draft nor cancelled (409 `invalid_state_transition`, checked before the lines). ' +
  "A line's returnable units are its units in shipped or delivered fulfillments minus those already returned " +
  "or refunded with restock minus those in the order's open returns (422 `quantity_exceeds_returnable`, " +
  '`lines[i][quantity]`, the message names the count). An exchange names an `exchange_variant_id` on every line ' +
  '(400 `parameter_missing`), of a buyable variant (404, 422 `product_unavailable`) in stock (422 ' +
  '`insufficient_inventory`; checked, not reserved); a refund return names none (400). Creation locks the order: ' +
  'concurrent requests never put more units into returns than are returnable.';

/**
 * Returns and exchanges (decisions §18, docs/returns-and-exchanges.md): 8 admin operations and 4
 * storefront ones (the signed-in customer's own orders and returns only; others → 404).
 */
export const returnsOperations = [
  // ---------------------------------------------------------------- admin
  defineOperation({
    name: 'returns.list',
    http: { method: 'GET', path: '/v1/admin/returns' },
    auth: 'secret',
    customerToken: 'none',
    inputIn: 'query',
    input: AdminReturnListQuerySchema,
    response: ReturnListSchema,
    summary: 'List returns',
    description:
      'Newest first. Filters: `status`, `order_id`, `customer_id`, `created_after`, `created_before` (inclusive).',
    tags: adminTags,
    operationId: 'listReturns',
    run: async (s, c) => s.returns.list(c.scope, c.input),
  }),
  defineOperation({
    name: 'returns.get',
    http: { method: 'GET', path: '/v1/admin/returns/:id' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    response: ReturnSchema,
    summary: 'Retrieve a return',
    tags: adminTags,
    operationId: 'getReturn',
    errors: ['not_found'],
    run: async (s, c) => s.returns.get(c.scope, c.params.id),
  }),
  defineOperation({
    name: 'returns.create',
    http: { method: 'POST', path: '/v1/admin/orders/:id/returns' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    input: AdminReturnCreateSchema,
    response: ReturnSchema,
    summary: 'Create a return for an order',
    description: `Created \`approved\` (\`approved_at\` = \`created_at\`); never limited by the store's return window. ${CREATE_RULES} The admin may also send \`admin_notes\` and \`metadata\`. Event \`return.approved\`.`,
    tags: adminTags,
    operationId: 'createReturn',
    errors: [
      'not_found',
      'invalid_state_transition',
      'quantity_exceeds_returnable',
      'product_unavailable',
      'insufficient_inventory',
    ],
    run: async (s, c) => s.returns.create(c.scope, c.params.id, c.input),
  }),
  defineOperation({
    name: 'returns.approve',
    http: { method: 'POST', path: '/v1/admin/returns/:id/approve' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    input: ReturnActionSchema,
    response: ReturnSchema,
    summary: 'Approve a return',
    description:
      'requested → approved. `admin_notes`, when sent, replaces the text (shown to the customer). Event `return.approved`.',
    tags: adminTags,
    operationId: 'approveReturn',
    errors: ['not_found', 'invalid_state_transition'],
    run: async (s, c) => s.returns.approve(c.scope, c.params.id, c.input),
  }),
  defineOperation({
    name: 'returns.reject',
    http: { method: 'POST', path: '/v1/admin/returns/:id/reject' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    input: ReturnActionSchema,
    response: ReturnSchema,
    summary: 'Reject a return',
    description:
      'requested → rejected, or received → rejected (the inspection failed). Moves neither stock nor money; the units ' +
      'become returnable again. Event `return.rejected`.',
    tags: adminTags,
    operationId: 'rejectReturn',
    errors: ['not_found', 'invalid_state_transition'],
    run: async (s, c) => s.returns.reject(c.scope, c.params.id, c.input),
  }),
  defineOperation({
    name: 'returns.receive',
    http: { method: 'POST', path: '/v1/admin/returns/:id/receive' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    input: ReturnReceiveSchema,
    response: ReturnSchema,
    summary: 'Mark a return received',
    description:
      "approved → received. `lines: [{ id, condition }]` records the inspected condition (it replaces the customer's). " +
      'Moves neither stock nor money. Event `return.received`.',
    tags: adminTags,
    operationId: 'receiveReturn',
    errors: ['not_found', 'invalid_state_transition'],
    run: async (s, c) => s.returns.receive(c.scope, c.params.id, c.input),
  }),
  defineOperation({
    name: 'returns.complete',
    http: { method: 'POST', path: '/v1/admin/returns/:id/complete' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    input: NoInputSchema,
    response: ReturnSchema,
    summary: 'Complete a return',
    description:
      'received → completed, in one transaction: units in condition null, `unopened` or `opened` go back to `on_hand`, ' +
      '`damaged` and `defective` ones are written off; all count as returned (`fulfillment_status` `returned` once every ' +
      'shipped unit came back). A `refund` return refunds what the units were paid, capped at paid − refunded − pending ' +
      '(0 → no refund), through the order’s payments like any refund (`restock: false`; `refund_id`); an `exchange` ' +
      'places the exchange order (`exchange_order_id`) paid by an `exchange_credit` payment. Event `return.completed`.',
    tags: adminTags,
    operationId: 'completeReturn',
    errors: [
      'not_found',
      'invalid_state_transition',
      'insufficient_inventory',
      'product_unavailable',
      'payment_failed',
    ],
    run: async (s, c) => s.returns.complete(c.scope, c.params.id),
  }),
  defineOperation({
    name: 'returns.cancel',
    http: { method: 'POST', path: '/v1/admin/returns/:id/cancel' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    input: NoInputSchema,
    response: ReturnSchema,
    summary: 'Cancel a return',
    description:
      'requested or approved → cancelled; its units become returnable again. Event `return.cancelled`.',
    tags: adminTags,
    operationId: 'cancelReturn',
    errors: ['not_found', 'invalid_state_transition'],
    run: async (s, c) => s.returns.cancel(c.scope, c.params.id),
  }),

  // ---------------------------------------------------------------- storefront
  defineOperation({
    name: 'returns.listForCustomer',
    http: { method: 'GET', path: '/v1/storefront/returns' },
    args: ['customer_id'],
    auth: 'any',
    customerToken: 'required',
    inputIn: 'query',
    input: StorefrontReturnListQuerySchema,
    response: ReturnListSchema,
    summary: "List the signed-in customer's returns",
    description: 'Newest first. Filters: `status`, `order_id`.',
    tags: storefrontTags,
    operationId: 'listMyReturns',
    run: async (s, c) =>
      s.returns.list(c.scope, c.input, { kind: 'customer', customer_id: signedIn(c).customer_id }),
  }),
  defineOperation({
    name: 'returns.getForCustomer',
    http: { method: 'GET', path: '/v1/storefront/returns/:id' },
    args: ['customer_id', 'id'],
    auth: 'any',
    customerToken: 'required',
    params: IdPathSchema,
    response: ReturnSchema,
    summary: "Retrieve one of the signed-in customer's returns",
    description: "Another customer's return is 404.",
    tags: storefrontTags,
    operationId: 'getMyReturn',
    errors: ['not_found'],
    run: async (s, c) =>
      s.returns.get(c.scope, c.params.id, { kind: 'customer', customer_id: signedIn(c).customer_id }),
  }),
  defineOperation({
    name: 'returns.createForCustomer',
    http: { method: 'POST', path: '/v1/storefront/orders/:id/returns' },
    args: ['customer_id', 'id'],
    auth: 'any',
    customerToken: 'required',
    params: IdPathSchema,
    input: StorefrontReturnCreateSchema,
    response: ReturnSchema,
    summary: 'Request a return',
    description: `Created \`requested\` on one of the signed-in customer's orders (another's, or a draft, → 404). ${CREATE_RULES} A line whose latest shipment is older than the store's \`return_window_days\` → 422 \`return_window_expired\`. \`admin_notes\` and \`metadata\` → 400 \`parameter_unknown\`. Event \`return.requested\`.`,
    tags: storefrontTags,
    operationId: 'createMyReturn',
    errors: [
      'not_found',
      'invalid_state_transition',
      'quantity_exceeds_returnable',
      'return_window_expired',
      'product_unavailable',
      'insufficient_inventory',
    ],
    run: async (s, c) =>
      s.returns.create(c.scope, c.params.id, c.input, {
        kind: 'customer',
        customer_id: signedIn(c).customer_id,
      }),
  }),
  defineOperation({
    name: 'returns.cancelForCustomer',
    http: { method: 'POST', path: '/v1/storefront/returns/:id/cancel' },
    args: ['customer_id', 'id'],
    auth: 'any',
    customerToken: 'required',
    params: IdPathSchema,
    input: NoInputSchema,
    response: ReturnSchema,
    summary: 'Cancel my return',
    description:
      'requested → cancelled (an approved return only the merchant cancels: 409). Event `return.cancelled`.',
    tags: storefrontTags,
    operationId: 'cancelMyReturn',
    errors: ['not_found', 'invalid_state_transition'],
    run: async (s, c) =>
      s.returns.cancel(c.scope, c.params.id, { kind: 'customer', customer_id: signedIn(c).customer_id }),
  }),
] as const;
