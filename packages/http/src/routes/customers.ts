import {
  AdminCustomerListQuerySchema,
  CustomerAddressCreateSchema,
  CustomerAddressListSchema,
  CustomerAddressSchema,
  CustomerAddressUpdateSchema,
  CustomerCreateSchema,
  CustomerListSchema,
  CustomerSchema,
  CustomerTokenCreateSchema,
  CustomerTokenSchema,
  CustomerUpdateSchema,
  DeletedResponseSchema,
  IdPathSchema,
  IdSchema,
  StorefrontCustomerUpdateSchema,
} from '@cartwright/core/schemas';
import { z } from 'zod';
import type { AnyRoute } from '../route';
import { defineApiRoute } from './define-api-route';
import { pageOf, scopeOf } from './scope';

const AddressPathSchema = z.object({ address_id: IdSchema });

const ADMIN_TAGS = ['Customers'] as const;
const STOREFRONT_TAGS = ['Storefront customers'] as const;

/** Admin customers (docs/contract.md#customers): secret key only. */
const adminRoutes: AnyRoute[] = [
  defineApiRoute({
    method: 'POST',
    path: '/v1/admin/customers',
    auth: 'secret',
    customerToken: 'none',
    body: CustomerCreateSchema,
    response: CustomerSchema,
    summary: 'Create a customer',
    description:
      'The e-mail is unique per store and mode, compared case-insensitively. Emits `customer.created`.',
    tags: ADMIN_TAGS,
    operationId: 'createCustomer',
    errors: ['duplicate_email'],
    handler: async (ctx) => ctx.engine.customers.create(scopeOf(ctx.auth), ctx.body),
  }),
  defineApiRoute({
    method: 'GET',
    path: '/v1/admin/customers',
    auth: 'secret',
    customerToken: 'none',
    query: AdminCustomerListQuerySchema,
    response: CustomerListSchema,
    summary: 'List customers',
    description: 'Newest first. Filters: `q` (partial name or e-mail), `status`, `tag`.',
    tags: ADMIN_TAGS,
    operationId: 'listCustomers',
    handler: async (ctx) => {
      const { q, status, tag } = ctx.query;
      return ctx.engine.customers.list(scopeOf(ctx.auth), { q, status, tag }, pageOf(ctx.query));
    },
  }),
  defineApiRoute({
    method: 'GET',
    path: '/v1/admin/customers/:id',
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    response: CustomerSchema,
    summary: 'Retrieve a customer',
    tags: ADMIN_TAGS,
    operationId: 'getCustomer',
    handler: async (ctx) => ctx.engine.customers.get(scopeOf(ctx.auth), ctx.params.id),
  }),
  defineApiRoute({
    method: 'PATCH',
    path: '/v1/admin/customers/:id',
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    body: CustomerUpdateSchema,
    response: CustomerSchema,
    summary: 'Update a customer',
    description: 'Any field, `status` included. Emits `customer.updated` when something changes.',
    tags: ADMIN_TAGS,
    operationId: 'updateCustomer',
    errors: ['duplicate_email'],
    handler: async (ctx) => ctx.engine.customers.update(scopeOf(ctx.auth), ctx.params.id, ctx.body),
  }),
  defineApiRoute({
    method: 'DELETE',
    path: '/v1/admin/customers/:id',
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    response: DeletedResponseSchema,
    summary: 'Delete a customer',
    description: "The customer's tokens stop working at once.",
    tags: ADMIN_TAGS,
    operationId: 'deleteCustomer',
    handler: async (ctx) => ctx.engine.customers.delete(scopeOf(ctx.auth), ctx.params.id),
  }),
  defineApiRoute({
    method: 'POST',
    path: '/v1/admin/customers/:id/token',
    aliases: ['/admin/customers/:id/token'],
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    body: CustomerTokenCreateSchema,
    response: CustomerTokenSchema,
    summary: 'Issue a customer token',
    description:
      'A token for `X-Customer-Token`, shown once. Body optional: `expires_in` seconds (default 86400, at most 2592000). Also served as `/admin/customers/{id}/token`.',
    tags: ADMIN_TAGS,
    operationId: 'createCustomerToken',
    handler: async (ctx) => ctx.engine.customers.issueToken(scopeOf(ctx.auth), ctx.params.id, ctx.body),
  }),
];

/** The signed-in customer (docs/contract.md#customer-tokens): any key plus `X-Customer-Token`. */
const storefrontRoutes: AnyRoute[] = [
  defineApiRoute({
    method: 'GET',
    path: '/v1/storefront/customers/me',
    auth: 'any',
    customerToken: 'required',
    response: CustomerSchema,
    summary: 'Retrieve the signed-in customer',
    tags: STOREFRONT_TAGS,
    operationId: 'getMyProfile',
    handler: async (ctx) => ctx.engine.customers.getProfile(scopeOf(ctx.auth), ctx.customer.customer_id),
  }),
  defineApiRoute({
    method: 'PATCH',
    path: '/v1/storefront/customers/me',
    auth: 'any',
    customerToken: 'required',
    body: StorefrontCustomerUpdateSchema,
    response: CustomerSchema,
    summary: 'Update the signed-in customer',
    description: '`status` is accepted but never applied: only the admin API changes it.',
    tags: STOREFRONT_TAGS,
    operationId: 'updateMyProfile',
    handler: async (ctx) =>
      ctx.engine.customers.updateProfile(scopeOf(ctx.auth), ctx.customer.customer_id, ctx.body),
  }),
  defineApiRoute({
    method: 'GET',
    path: '/v1/storefront/customers/me/addresses',
    auth: 'any',
    customerToken: 'required',
    response: CustomerAddressListSchema,
    summary: "List the signed-in customer's addresses",
    tags: STOREFRONT_TAGS,
    operationId: 'listMyAddresses',
    handler: async (ctx) => ctx.engine.customers.listAddresses(scopeOf(ctx.auth), ctx.customer.customer_id),
  }),
  defineApiRoute({
    method: 'POST',
    path: '/v1/storefront/customers/me/addresses',
    auth: 'any',
    customerToken: 'required',
    body: CustomerAddressCreateSchema,
    response: CustomerAddressSchema,
    summary: 'Add an address',
    description:
      'Who it is for: `name`, or `first_name` + `last_name` (then `name` is "first_name last_name"); one part alone is 400 `parameter_missing` naming the other. `type` defaults to `both`. `is_default: true` clears the default flag of the other addresses.',
    tags: STOREFRONT_TAGS,
    operationId: 'createMyAddress',
    handler: async (ctx) =>
      ctx.engine.customers.createAddress(scopeOf(ctx.auth), ctx.customer.customer_id, ctx.body),
  }),
  defineApiRoute({
    method: 'PATCH',
    path: '/v1/storefront/customers/me/addresses/:address_id',
    auth: 'any',
    customerToken: 'required',
    params: AddressPathSchema,
    body: CustomerAddressUpdateSchema,
    response: CustomerAddressSchema,
    summary: 'Update an address',
    description:
      'Partial: fields left out stay as they are, `null` clears an optional one. The address that results must satisfy the create rules (400 `parameter_missing` naming the field it would lack): a new `name` without `first_name` / `last_name` clears them; `first_name` / `last_name` without `name` are merged with the stored ones and, when both are set, make `name` "first_name last_name" again. `is_default: true` clears the default flag of the other addresses.',
    tags: STOREFRONT_TAGS,
    operationId: 'updateMyAddress',
    handler: async (ctx) =>
      ctx.engine.customers.updateAddress(
        scopeOf(ctx.auth),
        ctx.customer.customer_id,
        ctx.params.address_id,
        ctx.body,
      ),
  }),
  defineApiRoute({
    method: 'DELETE',
    path: '/v1/storefront/customers/me/addresses/:address_id',
    auth: 'any',
    customerToken: 'required',
    params: AddressPathSchema,
    response: DeletedResponseSchema,
    summary: 'Delete an address',
    tags: STOREFRONT_TAGS,
    operationId: 'deleteMyAddress',
    handler: async (ctx) =>
      ctx.engine.customers.deleteAddress(scopeOf(ctx.auth), ctx.customer.customer_id, ctx.params.address_id),
  }),
];

/** Customers: admin management, customer tokens, and the signed-in customer's profile and addresses. */
export const customersRoutes: AnyRoute[] = [...adminRoutes, ...storefrontRoutes];
