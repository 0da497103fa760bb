import {
  IdPathSchema,
  InventoryAdjustSchema,
  InventoryItemListSchema,
  InventoryItemSchema,
  InventoryListQuerySchema,
  InventoryUpdateSchema,
} from '../schemas';
import { pageOf } from './call';
import { defineOperation } from './operation';

const TAGS = ['Inventory'] as const;

/** Inventory administration (docs/contract.md#inventory): secret key only; items with `sku` and `levels` (decisions §22). */
export const inventoryOperations = [
  defineOperation({
    name: 'inventory.list',
    http: { method: 'GET', path: '/v1/admin/inventory' },
    auth: 'secret',
    customerToken: 'none',
    inputIn: 'query',
    input: InventoryListQuerySchema,
    response: InventoryItemListSchema,
    summary: 'List inventory',
    description: 'Newest first. `low_stock=true` returns only items with available ≤ safety_stock.',
    tags: TAGS,
    operationId: 'listInventory',
    run: async (s, c) => s.inventory.list(c.scope, { low_stock: c.input.low_stock }, pageOf(c.input)),
  }),
  defineOperation({
    name: 'inventory.get',
    http: { method: 'GET', path: '/v1/admin/inventory/:id' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    response: InventoryItemSchema,
    summary: 'Retrieve an inventory item',
    tags: TAGS,
    operationId: 'getInventoryItem',
    run: async (s, c) => s.inventory.get(c.scope, c.params.id),
  }),
  defineOperation({
    name: 'inventory.update',
    http: { method: 'PATCH', path: '/v1/admin/inventory/:id' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    input: InventoryUpdateSchema,
    response: InventoryItemSchema,
    summary: 'Update an inventory item',
    description: 'Settings and an absolute `on_hand`, which may not go below `reserved`.',
    tags: TAGS,
    operationId: 'updateInventoryItem',
    errors: ['insufficient_inventory'],
    run: async (s, c) => s.inventory.update(c.scope, c.params.id, c.input),
  }),
  defineOperation({
    name: 'inventory.adjust',
    http: { method: 'POST', path: '/v1/admin/inventory/:id/adjust' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    input: InventoryAdjustSchema,
    response: InventoryItemSchema,
    summary: 'Adjust stock on hand',
    description:
      '`quantity` is a signed delta added to `on_hand` atomically; `on_hand` may not go below `reserved`.',
    tags: TAGS,
    operationId: 'adjustInventoryItem',
    errors: ['insufficient_inventory'],
    run: async (s, c) => s.inventory.adjust(c.scope, c.params.id, c.input),
  }),
] as const;
