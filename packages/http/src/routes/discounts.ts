import {
  AdminDiscountListQuerySchema,
  DeletedResponseSchema,
  type DiscountCreate,
  DiscountCreateSchema,
  DiscountListSchema,
  DiscountSchema,
  DiscountUpdateSchema,
  IdPathSchema,
} from '@cartwright/core/schemas';
import type { AnyRoute } from '../route';
import { defineApiRoute } from './define-api-route';
import { scopeOf } from './scope';

const tags = ['Discounts'] as const;

/** Admin discounts (docs/contract.md#discounts): secret key only. */
export const discountsRoutes: AnyRoute[] = [
  defineApiRoute({
    method: 'POST',
    path: '/v1/admin/discounts',
    auth: 'secret',
    customerToken: 'none',
    body: DiscountCreateSchema,
    response: DiscountSchema,
    summary: 'Create a discount',
    description:
      'Codes are unique per store and mode, compared case-insensitively (409 `duplicate_code`). ' +
      '`minimum_amount` and `maximum_discount` are in the store currency (422 `currency_mismatch`).',
    tags,
    operationId: 'createDiscount',
    errors: ['duplicate_code', 'currency_mismatch'],
    // The schema's `.overwrite` always sets value and target (see `DiscountCreate`).
    handler: (ctx) => ctx.engine.discounts.create(scopeOf(ctx.auth), ctx.body as DiscountCreate),
  }),
  defineApiRoute({
    method: 'GET',
    path: '/v1/admin/discounts',
    auth: 'secret',
    customerToken: 'none',
    query: AdminDiscountListQuerySchema,
    response: DiscountListSchema,
    summary: 'List discounts',
    description: 'Newest first. Filters: `type` (code or automatic), `is_active` (true or false).',
    tags,
    operationId: 'listDiscounts',
    handler: (ctx) => ctx.engine.discounts.list(scopeOf(ctx.auth), ctx.query),
  }),
  defineApiRoute({
    method: 'GET',
    path: '/v1/admin/discounts/:id',
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    response: DiscountSchema,
    summary: 'Retrieve a discount',
    tags,
    operationId: 'getDiscount',
    errors: ['not_found'],
    handler: (ctx) => ctx.engine.discounts.get(scopeOf(ctx.auth), ctx.params.id),
  }),
  defineApiRoute({
    method: 'PATCH',
    path: '/v1/admin/discounts/:id',
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    body: DiscountUpdateSchema,
    response: DiscountSchema,
    summary: 'Update a discount',
    description:
      'Any field but `type`, which cannot change. `conditions` and `metadata` are replaced as a whole.',
    tags,
    operationId: 'updateDiscount',
    errors: ['not_found', 'duplicate_code', 'currency_mismatch'],
    handler: (ctx) => ctx.engine.discounts.update(scopeOf(ctx.auth), ctx.params.id, ctx.body),
  }),
  defineApiRoute({
    method: 'DELETE',
    path: '/v1/admin/discounts/:id',
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    response: DeletedResponseSchema,
    summary: 'Delete a discount',
    description: 'The discount stops applying at once; orders keep what it saved.',
    tags,
    operationId: 'deleteDiscount',
    errors: ['not_found'],
    handler: (ctx) => ctx.engine.discounts.delete(scopeOf(ctx.auth), ctx.params.id),
  }),
];
