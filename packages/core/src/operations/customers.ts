import { z } from 'zod';
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
} from '../schemas';
import { pageOf, signedIn } from './call';
import { defineOperation } from './operation';

const AddressPathSchema = z.object({ address_id: IdSchema });

const ADMIN_TAGS = ['Customers'] as const;
const STOREFRONT_TAGS = ['Storefront customers'] as const;

/** Admin customers (docs/contract.md#customers): secret key only. */
const adminOperations = [
  defineOperation({
    name: 'customers.create',
    http: { method: 'POST', path: '/v1/admin/customers' },
    auth: 'secret',
    customerToken: 'none',
    input: CustomerCreateSchema,
    response: CustomerSchema,
    summary: 'Create a customer',
    description:
      'The e-mail is unique per store and mode, compared case-insensitively. Emits `customer.created`.',
    tags: ADMIN_TAGS,
    operationId: 'createCustomer',
    errors: ['duplicate_email'],
    run: async (s, c) => s.customers.create(c.scope, c.input),
  }),
  defineOperation({
    name: 'customers.list',
    http: { method: 'GET', path: '/v1/admin/customers' },
    auth: 'secret',
    customerToken: 'none',
    inputIn: 'query',
    input: AdminCustomerListQuerySchema,
    response: CustomerListSchema,
    summary: 'List customers',
    description: 'Newest first. Filters: `q` (partial name or e-mail), `status`, `tag`.',
    tags: ADMIN_TAGS,
    operationId: 'listCustomers',
    run: async (s, c) => {
      const { q, status, tag } = c.input;
      return s.customers.list(c.scope, { q, status, tag }, pageOf(c.input));
    },
  }),
  defineOperation({
    name: 'customers.get',
    http: { method: 'GET', path: '/v1/admin/customers/:id' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    response: CustomerSchema,
    summary: 'Retrieve a customer',
    tags: ADMIN_TAGS,
    operationId: 'getCustomer',
    run: async (s, c) => s.customers.get(c.scope, c.params.id),
  }),
  defineOperation({
    name: 'customers.update',
    http: { method: 'PATCH', path: '/v1/admin/customers/:id' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    input: CustomerUpdateSchema,
    response: CustomerSchema,
    summary: 'Update a customer',
    description: 'Any field, `status` included. Emits `customer.updated` when something changes.',
    tags: ADMIN_TAGS,
    operationId: 'updateCustomer',
    errors: ['duplicate_email'],
    run: async (s, c) => s.customers.update(c.scope, c.params.id, c.input),
  }),
  defineOperation({
    name: 'customers.delete',
    http: { method: 'DELETE', path: '/v1/admin/customers/:id' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    response: DeletedResponseSchema,
    summary: 'Delete a customer',
    description: "The customer's tokens stop working at once.",
    tags: ADMIN_TAGS,
    operationId: 'deleteCustomer',
    run: async (s, c) => s.customers.delete(c.scope, c.params.id),
  }),
  defineOperation({
    name: 'customers.issueToken',
    http: { method: 'POST', path: '/v1/admin/customers/:id/token', aliases: ['/admin/customers/:id/token'] },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    input: CustomerTokenCreateSchema,
    response: CustomerTokenSchema,
    summary: 'Issue a customer token',
    description:
      'A token for `X-Customer-Token`, shown once. Body optional: `expires_in` seconds (default 86400, at most 2592000). Also served as `/admin/customers/{id}/token`.',
    tags: ADMIN_TAGS,
    operationId: 'createCustomerToken',
    run: async (s, c) => s.customers.issueToken(c.scope, c.params.id, c.input),
  }),
] as const;

/** The signed-in customer (docs/contract.md#customer-tokens): any key plus `X-Customer-Token`. */
const storefrontOperations = [
  defineOperation({
    name: 'customers.getProfile',
    http: { method: 'GET', path: '/v1/storefront/customers/me' },
    args: ['customer_id'],
    auth: 'any',
    customerToken: 'required',
    response: CustomerSchema,
    summary: 'Retrieve the signed-in customer',
    tags: STOREFRONT_TAGS,
    operationId: 'getMyProfile',
    run: async (s, c) => s.customers.getProfile(c.scope, signedIn(c).customer_id),
  }),
  defineOperation({
    name: 'customers.updateProfile',
    http: { method: 'PATCH', path: '/v1/storefront/customers/me' },
    args: ['customer_id'],
    auth: 'any',
    customerToken: 'required',
    input: StorefrontCustomerUpdateSchema,
    response: CustomerSchema,
    summary: 'Update the signed-in customer',
    description: '`status` is accepted but never applied: only the admin API changes it.',
    tags: STOREFRONT_TAGS,
    operationId: 'updateMyProfile',
    run: async (s, c) => s.customers.updateProfile(c.scope, signedIn(c).customer_id, c.input),
  }),
  defineOperation({
    name: 'customers.listAddresses',
    http: { method: 'GET', path: '/v1/storefront/customers/me/addresses' },
    args: ['customer_id'],
    auth: 'any',
    customerToken: 'required',
    response: CustomerAddressListSchema,
    summary: "List the signed-in customer's addresses",
    tags: STOREFRONT_TAGS,
    operationId: 'listMyAddresses',
    run: async (s, c) => s.customers.listAddresses(c.scope, signedIn(c).customer_id),
  }),
  defineOperation({
    name: 'customers.createAddress',
    http: { method: 'POST', path: '/v1/storefront/customers/me/addresses' },
    args: ['customer_id'],
    auth: 'any',
    customerToken: 'required',
    input: CustomerAddressCreateSchema,
    response: CustomerAddressSchema,
    summary: 'Add an address',
    description:
      'Who it is for: `name`, or `first_name` + `last_name` (then `name` is "first_name last_name"); one part alone is 400 `parameter_missing` naming the other. `type` defaults to `both`. `is_default: true` clears the default flag of the other addresses.',
    tags: STOREFRONT_TAGS,
    operationId: 'createMyAddress',
    run: async (s, c) => s.customers.createAddress(c.scope, signedIn(c).customer_id, c.input),
  }),
  defineOperation({
    name: 'customers.updateAddress',
    http: { method: 'PATCH', path: '/v1/storefront/customers/me/addresses/:address_id' },
    args: ['customer_id', 'address_id'],
    auth: 'any',
    customerToken: 'required',
    params: AddressPathSchema,
    input: CustomerAddressUpdateSchema,
    response: CustomerAddressSchema,
    summary: 'Update an address',
    description:
      'Partial: fields left out stay as they are, `null` clears an optional one. The address that results must satisfy the create rules (400 `parameter_missing` naming the field it would lack): a new `name` without `first_name` / `last_name` clears them; `first_name` / `last_name` without `name` are merged with the stored ones and, when both are set, make `name` "first_name last_name" again. `is_default: true` clears the default flag of the other addresses.',
    tags: STOREFRONT_TAGS,
    operationId: 'updateMyAddress',
    run: async (s, c) =>
      s.customers.updateAddress(c.scope, signedIn(c).customer_id, c.params.address_id, c.input),
  }),
  defineOperation({
    name: 'customers.deleteAddress',
    http: { method: 'DELETE', path: '/v1/storefront/customers/me/addresses/:address_id' },
    args: ['customer_id', 'address_id'],
    auth: 'any',
    customerToken: 'required',
    params: AddressPathSchema,
    response: DeletedResponseSchema,
    summary: 'Delete an address',
    tags: STOREFRONT_TAGS,
    operationId: 'deleteMyAddress',
    run: async (s, c) => s.customers.deleteAddress(c.scope, signedIn(c).customer_id, c.params.address_id),
  }),
] as const;

/** Customers: admin management, customer tokens, and the signed-in customer's profile and addresses. */
export const customersOperations = [...adminOperations, ...storefrontOperations] as const;
