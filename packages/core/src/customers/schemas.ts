import { z } from 'zod';
import {
  ADDRESS_INPUT_SHAPE,
  ADDRESS_NAME_RULE,
  AddressSchema,
  CountryCodeSchema,
  DateTimeSchema,
  EmailSchema,
  IdentifierTextSchema,
  IntegerSchema,
  listOf,
  listQuery,
  MetadataInputSchema,
  MetadataSchema,
  MoneySchema,
  type Named,
  OptionalTextSchema,
  RequiredTextSchema,
  refineAddressName,
} from '../shared/schemas/common';
import { MAX_IDENTIFIER_LENGTH, MAX_LIST_ITEMS, MAX_SEARCH_LENGTH } from '../shared/schemas/limits';
import type { CustomerStatus } from './vocabulary';

/** The vocabulary of this context (./vocabulary.ts, which the storage records use too), re-exported here. */
export type { CustomerStatus };
export const CUSTOMER_STATUSES = ['active', 'disabled'] as const satisfies readonly CustomerStatus[];
export interface CustomerStatusSchema extends Named<typeof customerStatusSchema> {}
const customerStatusSchema = z.enum(CUSTOMER_STATUSES);
export const CustomerStatusSchema: CustomerStatusSchema = customerStatusSchema;

export const ADDRESS_TYPES = ['shipping', 'billing', 'both'] as const;
export type AddressType = (typeof ADDRESS_TYPES)[number];
export interface AddressTypeSchema extends Named<typeof addressTypeSchema> {}
const addressTypeSchema = z.enum(ADDRESS_TYPES);
export const AddressTypeSchema: AddressTypeSchema = addressTypeSchema;

/** Longest customer token lifetime, in seconds (30 days, docs/contract.md#customer-tokens). */
export const CUSTOMER_TOKEN_MAX_EXPIRES_IN = 2_592_000;
/** Default customer token lifetime, in seconds (24 hours, docs/contract.md#customer-tokens). */
export const CUSTOMER_TOKEN_DEFAULT_EXPIRES_IN = 86_400;

// ---------------------------------------------------------------- responses

/**
 * A customer (spec "Customer"). `addresses` are the saved addresses without id, type or default
 * flag; `total_orders` counts non-draft, non-cancelled orders; `total_spent` is paid minus
 * refunded (docs/contract.md#customer-totals). Optional names and ids are `null` when unset.
 */
export interface CustomerSchema extends Named<typeof customerSchema> {}
const customerSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    phone: z.string().nullable(),
    external_id: z.string().nullable(),
    status: CustomerStatusSchema,
    total_orders: z.int(),
    total_spent: MoneySchema,
    tags: z.array(z.string()),
    addresses: z.array(AddressSchema),
    metadata: MetadataSchema,
    /** Whether the customer can sign in with a password (docs/contract.md#sign-in); nothing of the hash is shown. */
    has_password: z.boolean(),
    created_at: DateTimeSchema,
  })
  .meta({ id: 'Customer' });
export const CustomerSchema: CustomerSchema = customerSchema;
export type Customer = z.infer<typeof CustomerSchema>;

export const CustomerListSchema = listOf(CustomerSchema);
export type CustomerList = z.infer<typeof CustomerListSchema>;

/**
 * A saved address of the signed-in customer (spec "CustomerAddress", decisions §22): the
 * {@link AddressSchema} fields with its id, type and default flag.
 */
export interface CustomerAddressSchema extends Named<typeof customerAddressSchema> {}
const customerAddressSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    company: z.string().nullable(),
    line1: z.string(),
    line2: z.string().nullable(),
    city: z.string(),
    state: z.string().nullable(),
    postal_code: z.string(),
    country: z.string(),
    phone: z.string().nullable(),
    label: z.string().nullable(),
    receiver_name: z.string().nullable(),
    type: AddressTypeSchema,
    is_default: z.boolean(),
    created_at: DateTimeSchema,
  })
  .meta({ id: 'CustomerAddress' });
export const CustomerAddressSchema: CustomerAddressSchema = customerAddressSchema;
export type CustomerAddress = z.infer<typeof CustomerAddressSchema>;

/** `GET /v1/storefront/customers/me/addresses`: only `data`, no paging (spec). */
export interface CustomerAddressListSchema extends Named<typeof customerAddressListSchema> {}
const customerAddressListSchema = z
  .object({ data: z.array(CustomerAddressSchema) })
  .meta({ id: 'CustomerAddressList' });
export const CustomerAddressListSchema: CustomerAddressListSchema = customerAddressListSchema;
export type CustomerAddressList = z.infer<typeof CustomerAddressListSchema>;

/** `POST /v1/admin/customers/{id}/token` response (docs/contract.md#customer-tokens). */
export interface CustomerTokenSchema extends Named<typeof customerTokenSchema> {}
const customerTokenSchema = z
  .object({
    token: z.string(),
    customer_id: z.string(),
    expires_at: DateTimeSchema,
  })
  .meta({ id: 'CustomerToken' });
export const CustomerTokenSchema: CustomerTokenSchema = customerTokenSchema;
export type CustomerToken = z.infer<typeof CustomerTokenSchema>;

/**
 * A signed-in customer (docs/contract.md#customer-accounts): the answer of register, sign-in and reset confirmation.
 * `token` is a customer token as `POST /v1/admin/customers/{id}/token` issues (docs/contract.md#customer-tokens).
 */
export interface CustomerSessionSchema extends Named<typeof customerSessionSchema> {}
const customerSessionSchema = z
  .object({
    customer: CustomerSchema,
    token: z.string(),
    expires_at: DateTimeSchema,
  })
  .meta({ id: 'CustomerSession' });
export const CustomerSessionSchema: CustomerSessionSchema = customerSessionSchema;
export type CustomerSession = z.infer<typeof CustomerSessionSchema>;

/** `{ "success": true }`: sign-out and password reset requests (docs/contract.md#password-reset). */
export interface SuccessSchema extends Named<typeof successSchema> {}
const successSchema = z.object({ success: z.literal(true) }).meta({ id: 'Success' });
export const SuccessSchema: SuccessSchema = successSchema;
export type Success = z.infer<typeof SuccessSchema>;

// ---------------------------------------------------------------- requests

/** Shortest and longest password (docs/contract.md#passwords). */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

/** A new password: 8–128 characters (the "not the e-mail" rule needs the e-mail: see `refinePassword`). */
export const PasswordSchema = z.string().min(PASSWORD_MIN_LENGTH).max(PASSWORD_MAX_LENGTH);

/** The password of a sign-in or a password check: any string up to the longest password. */
const PresentedPasswordSchema = z.string().min(1).max(PASSWORD_MAX_LENGTH);

/** A password may not be the account's e-mail (compared case-insensitively, docs/contract.md#passwords). */
function passwordIsNotEmail(
  value: { email?: string | undefined; password?: string | undefined },
  ctx: z.RefinementCtx,
) {
  if (
    value.password !== undefined &&
    value.email !== undefined &&
    value.password.toLowerCase() === value.email.toLowerCase()
  ) {
    ctx.addIssue({
      code: 'custom',
      path: ['password'],
      message: 'The password may not be the e-mail address',
    });
  }
}

const PROFILE_FIELDS = {
  first_name: OptionalTextSchema,
  last_name: OptionalTextSchema,
  phone: OptionalTextSchema,
};

/** `POST /v1/admin/customers`. The e-mail is unique per store and mode (409 `duplicate_email`). */
export interface CustomerCreateSchema extends Named<typeof customerCreateSchema> {}
const customerCreateSchema = z
  .strictObject({
    email: EmailSchema,
    ...PROFILE_FIELDS,
    external_id: z.string().max(MAX_IDENTIFIER_LENGTH).nullable().optional(),
    status: CustomerStatusSchema.default('active'),
    tags: z.array(IdentifierTextSchema).max(MAX_LIST_ITEMS).default([]),
    metadata: MetadataInputSchema.default({}),
    /** Optional: lets the customer sign in (docs/contract.md#sign-in). */
    password: PasswordSchema.optional(),
  })
  .superRefine(passwordIsNotEmail)
  .meta({ id: 'CustomerCreate' });
export const CustomerCreateSchema: CustomerCreateSchema = customerCreateSchema;
export type CustomerCreate = z.infer<typeof CustomerCreateSchema>;

/** `POST /v1/storefront/customer-auth/register` (docs/contract.md#sign-up). */
export interface CustomerRegisterSchema extends Named<typeof customerRegisterSchema> {}
const customerRegisterSchema = z
  .strictObject({
    email: EmailSchema,
    password: PasswordSchema,
    ...PROFILE_FIELDS,
  })
  .superRefine(passwordIsNotEmail)
  .meta({ id: 'CustomerRegister' });
export const CustomerRegisterSchema: CustomerRegisterSchema = customerRegisterSchema;
export type CustomerRegister = z.infer<typeof CustomerRegisterSchema>;

/** `POST /v1/storefront/customer-auth/login` (docs/contract.md#sign-in). */
export interface CustomerSignInSchema extends Named<typeof customerSignInSchema> {}
const customerSignInSchema = z
  .strictObject({ email: EmailSchema, password: PresentedPasswordSchema })
  .meta({ id: 'CustomerSignIn' });
export const CustomerSignInSchema: CustomerSignInSchema = customerSignInSchema;
export type CustomerSignIn = z.infer<typeof CustomerSignInSchema>;

/** `POST /v1/storefront/customers/me/password` (docs/contract.md#passwords). */
export interface CustomerPasswordChangeSchema extends Named<typeof customerPasswordChangeSchema> {}
const customerPasswordChangeSchema = z
  .strictObject({ current_password: PresentedPasswordSchema, new_password: PasswordSchema })
  .meta({ id: 'CustomerPasswordChange' });
export const CustomerPasswordChangeSchema: CustomerPasswordChangeSchema = customerPasswordChangeSchema;
export type CustomerPasswordChange = z.infer<typeof CustomerPasswordChangeSchema>;

/** `POST /v1/storefront/customers/password-reset` (docs/contract.md#password-reset). */
export interface PasswordResetRequestSchema extends Named<typeof passwordResetRequestSchema> {}
const passwordResetRequestSchema = z
  .strictObject({ email: EmailSchema })
  .meta({ id: 'PasswordResetRequest' });
export const PasswordResetRequestSchema: PasswordResetRequestSchema = passwordResetRequestSchema;
export type PasswordResetRequest = z.infer<typeof PasswordResetRequestSchema>;

/** `POST /v1/storefront/customers/password-reset/confirm` (docs/contract.md#password-reset). */
export interface PasswordResetConfirmSchema extends Named<typeof passwordResetConfirmSchema> {}
const passwordResetConfirmSchema = z
  .strictObject({ token: z.string().min(1).max(MAX_IDENTIFIER_LENGTH), new_password: PasswordSchema })
  .meta({ id: 'PasswordResetConfirm' });
export const PasswordResetConfirmSchema: PasswordResetConfirmSchema = passwordResetConfirmSchema;
export type PasswordResetConfirm = z.infer<typeof PasswordResetConfirmSchema>;

/** `PATCH /v1/admin/customers/{id}`: any field, `status` included (docs/contract.md#customers). */
export interface CustomerUpdateSchema extends Named<typeof customerUpdateSchema> {}
const customerUpdateSchema = z
  .strictObject({
    email: EmailSchema.optional(),
    ...PROFILE_FIELDS,
    external_id: z.string().max(MAX_IDENTIFIER_LENGTH).nullable().optional(),
    status: CustomerStatusSchema.optional(),
    tags: z.array(IdentifierTextSchema).max(MAX_LIST_ITEMS).optional(),
    metadata: MetadataInputSchema.optional(),
  })
  .meta({ id: 'CustomerUpdate' });
export const CustomerUpdateSchema: CustomerUpdateSchema = customerUpdateSchema;
export type CustomerUpdate = z.infer<typeof CustomerUpdateSchema>;

/**
 * `PATCH /v1/storefront/customers/me` (spec): `status` is accepted and validated, because the spec
 * lists it, but the service never applies it (docs/contract.md#customers: 200, status unchanged).
 */
export interface StorefrontCustomerUpdateSchema extends Named<typeof storefrontCustomerUpdateSchema> {}
const storefrontCustomerUpdateSchema = z
  .strictObject({
    ...PROFILE_FIELDS,
    status: CustomerStatusSchema.optional(),
    tags: z.array(IdentifierTextSchema).max(MAX_LIST_ITEMS).optional(),
    metadata: MetadataInputSchema.optional(),
  })
  .meta({ id: 'StorefrontCustomerUpdate' });
export const StorefrontCustomerUpdateSchema: StorefrontCustomerUpdateSchema = storefrontCustomerUpdateSchema;
export type StorefrontCustomerUpdate = z.infer<typeof StorefrontCustomerUpdateSchema>;

/**
 * `POST /v1/storefront/customers/me/addresses`: the address body (`name`, or `first_name` +
 * `last_name`, as everywhere an address is taken), `type` defaulting to `both`, `is_default` to false.
 */
export interface CustomerAddressCreateSchema extends Named<typeof customerAddressCreateSchema> {}
const customerAddressCreateSchema = refineAddressName(
  z.strictObject({
    ...ADDRESS_INPUT_SHAPE,
    type: AddressTypeSchema.default('both'),
    is_default: z.boolean().default(false),
  }),
).meta({ id: 'CustomerAddressCreate', description: ADDRESS_NAME_RULE });
export const CustomerAddressCreateSchema: CustomerAddressCreateSchema = customerAddressCreateSchema;
export type CustomerAddressCreate = z.infer<typeof CustomerAddressCreateSchema>;

/**
 * `PATCH /v1/storefront/customers/me/addresses/{address_id}` (decisions §22): partial — every
 * field optional, absent ones unchanged, `null` clears an optional one. The address that results
 * must satisfy the create rules (the address book checks the name group: 400
 * `parameter_missing` naming the missing field).
 */
export interface CustomerAddressUpdateSchema extends Named<typeof customerAddressUpdateSchema> {}
const customerAddressUpdateSchema = z
  .strictObject({
    ...ADDRESS_INPUT_SHAPE,
    name: RequiredTextSchema.optional().meta({
      description:
        'A new name without first_name / last_name clears them; first_name / last_name without name re-derive it.',
    }),
    line1: RequiredTextSchema.optional(),
    city: RequiredTextSchema.optional(),
    postal_code: RequiredTextSchema.optional(),
    country: CountryCodeSchema.optional(),
    type: AddressTypeSchema.optional(),
    is_default: z.boolean().optional(),
  })
  .meta({ id: 'CustomerAddressUpdate' });
export const CustomerAddressUpdateSchema: CustomerAddressUpdateSchema = customerAddressUpdateSchema;
export type CustomerAddressUpdate = z.infer<typeof CustomerAddressUpdateSchema>;

/** `POST /v1/admin/customers/{id}/token` body, optional: `expires_in` seconds, 1..2592000, default 86400. */
export interface CustomerTokenCreateSchema extends Named<typeof customerTokenCreateSchema> {}
const customerTokenCreateSchema = z
  .strictObject({
    expires_in: IntegerSchema.min(1)
      .max(CUSTOMER_TOKEN_MAX_EXPIRES_IN)
      .default(CUSTOMER_TOKEN_DEFAULT_EXPIRES_IN),
  })
  .meta({ id: 'CustomerTokenCreate' });
export const CustomerTokenCreateSchema: CustomerTokenCreateSchema = customerTokenCreateSchema;
export type CustomerTokenCreate = z.infer<typeof CustomerTokenCreateSchema>;

// ---------------------------------------------------------------- list queries

/** `GET /v1/admin/customers`: `q` (name or e-mail, partial), `status`, `tag` (one tag). */
export interface AdminCustomerListQuerySchema extends Named<typeof adminCustomerListQuerySchema> {}
const adminCustomerListQuerySchema = listQuery(['created_at'], {
  q: z.string().max(MAX_SEARCH_LENGTH).optional(),
  status: CustomerStatusSchema.optional(),
  tag: z.string().min(1).max(MAX_IDENTIFIER_LENGTH).optional(),
});
export const AdminCustomerListQuerySchema: AdminCustomerListQuerySchema = adminCustomerListQuerySchema;
export type AdminCustomerListQuery = z.infer<typeof AdminCustomerListQuerySchema>;
