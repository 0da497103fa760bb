import {
  IdPathSchema,
  InventoryAdjustSchema,
  InventoryItemListSchema,
  InventoryItemSchema,
  InventoryListQuerySchema,
  InventoryUpdateSchema,
} from '@cartwright/core/schemas';
import type { AnyRoute } from '../route';
import { defineApiRoute } from './define-api-route';
import { pageOf, scopeOf } from './scope';

const TAGS = ['Inventory'] as const;

/** Inventory administration (docs/contract.md#inventory): secret key only; items with `sku` and `levels` (decisions §22). */
export const inventoryRoutes: AnyRoute[] = [
  defineApiRoute({
    method: 'GET',
    path: '/v1/admin/inventory',
    auth: 'secret',
    customerToken: 'none',
    query: InventoryListQuerySchema,
    response: InventoryItemListSchema,
    summary: 'List inventory',
    description: 'Newest first. `low_stock=true` returns only items with available ≤ safety_stock.',
    tags: TAGS,
    operationId: 'listInventory',
    handler: async (ctx) =>
      ctx.engine.inventory.list(scopeOf(ctx.auth), { low_stock: ctx.query.low_stock }, pageOf(ctx.query)),
  }),
  defineApiRoute({
    method: 'GET',
    path: '/v1/admin/inventory/:id',
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    response: InventoryItemSchema,
    summary: 'Retrieve an inventory item',
    tags: TAGS,
    operationId: 'getInventoryItem',
    handler: async (ctx) => ctx.engine.inventory.get(scopeOf(ctx.auth), ctx.params.id),
  }),
  defineApiRoute({
    method: 'PATCH',
    path: '/v1/admin/inventory/:id',
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    body: InventoryUpdateSchema,
    response: InventoryItemSchema,
    summary: 'Update an inventory item',
    description: 'Settings and an absolute `on_hand`, which may not go below `reserved`.',
    tags: TAGS,
    operationId: 'updateInventoryItem',
    errors: ['insufficient_inventory'],
    handler: async (ctx) => ctx.engine.inventory.update(scopeOf(ctx.auth), ctx.params.id, ctx.body),
  }),
  defineApiRoute({
    method: 'POST',
    path: '/v1/admin/inventory/:id/adjust',
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    body: InventoryAdjustSchema,
    response: InventoryItemSchema,
    summary: 'Adjust stock on hand',
    description:
      '`quantity` is a signed delta added to `on_hand` atomically; `on_hand` may not go below `reserved`.',
    tags: TAGS,
    operationId: 'adjustInventoryItem',
    errors: ['insufficient_inventory'],
    handler: async (ctx) => ctx.engine.inventory.adjust(scopeOf(ctx.auth), ctx.params.id, ctx.body),
  }),
];
