import {
  AdminDiscountListQuerySchema,
  DeletedResponseSchema,
  type DiscountCreate,
  DiscountCreateSchema,
  DiscountListSchema,
  DiscountSchema,
  DiscountUpdateSchema,
  IdPathSchema,
} from '../schemas';
import { defineOperation } from './operation';

const tags = ['Discounts'] as const;

/** Admin discounts (docs/contract.md#discounts): secret key only. */
export const discountsOperations = [
  defineOperation({
    name: 'discounts.create',
    http: { method: 'POST', path: '/v1/admin/discounts' },
    auth: 'secret',
    customerToken: 'none',
    input: DiscountCreateSchema,
    response: DiscountSchema,
    summary: 'Create a discount',
    description:
      'Codes are unique per store and mode, compared case-insensitively (409 `duplicate_code`). ' +
      '`minimum_amount` and `maximum_discount` are in the store currency (422 `currency_mismatch`).',
    tags,
    operationId: 'createDiscount',
    errors: ['duplicate_code', 'currency_mismatch'],
    // The schema's `.overwrite` always sets value and target (see `DiscountCreate`).
    run: async (s, c) => s.discounts.create(c.scope, c.input as DiscountCreate),
  }),
  defineOperation({
    name: 'discounts.list',
    http: { method: 'GET', path: '/v1/admin/discounts' },
    auth: 'secret',
    customerToken: 'none',
    inputIn: 'query',
    input: AdminDiscountListQuerySchema,
    response: DiscountListSchema,
    summary: 'List discounts',
    description: 'Newest first. Filters: `type` (code or automatic), `is_active` (true or false).',
    tags,
    operationId: 'listDiscounts',
    run: async (s, c) => s.discounts.list(c.scope, c.input),
  }),
  defineOperation({
    name: 'discounts.get',
    http: { method: 'GET', path: '/v1/admin/discounts/:id' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    response: DiscountSchema,
    summary: 'Retrieve a discount',
    tags,
    operationId: 'getDiscount',
    errors: ['not_found'],
    run: async (s, c) => s.discounts.get(c.scope, c.params.id),
  }),
  defineOperation({
    name: 'discounts.update',
    http: { method: 'PATCH', path: '/v1/admin/discounts/:id' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    input: DiscountUpdateSchema,
    response: DiscountSchema,
    summary: 'Update a discount',
    description:
      'Any field but `type`, which cannot change. `conditions` and `metadata` are replaced as a whole.',
    tags,
    operationId: 'updateDiscount',
    errors: ['not_found', 'duplicate_code', 'currency_mismatch'],
    run: async (s, c) => s.discounts.update(c.scope, c.params.id, c.input),
  }),
  defineOperation({
    name: 'discounts.delete',
    http: { method: 'DELETE', path: '/v1/admin/discounts/:id' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    response: DeletedResponseSchema,
    summary: 'Delete a discount',
    description: 'The discount stops applying at once; orders keep what it saved.',
    tags,
    operationId: 'deleteDiscount',
    errors: ['not_found'],
    run: async (s, c) => s.discounts.delete(c.scope, c.params.id),
  }),
] as const;
