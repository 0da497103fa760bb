import { z } from 'zod';
import {
  DateTimeSchema,
  IdentifierTextSchema,
  MetadataInputSchema,
  MetadataSchema,
  MoneySchema,
  type Named,
  OptionalLongTextSchema,
  positiveMoneyInput,
} from '../shared/schemas/common';
import type { PaymentRecordStatus } from '../vocabulary/payments';

// Payment schemas (docs/contract.md#payments). An order shows its payments (orders/schemas.ts).

/** Payment `status` (docs/contract.md#payments). */
export const PAYMENT_STATUSES = [
  'pending',
  'completed',
  'failed',
  'cancelled',
  'refunded',
] as const satisfies readonly PaymentRecordStatus[];
export interface PaymentStatusSchema extends Named<typeof paymentStatusSchema> {}
const paymentStatusSchema = z.enum(PAYMENT_STATUSES);
export const PaymentStatusSchema: PaymentStatusSchema = paymentStatusSchema;

// ---------------------------------------------------------------- responses

/**
 * A payment (spec "Payment"). `provider_id` is null for payments without a provider reference
 * (manual, admin-recorded); `note` and `metadata` are what `POST …/payments` recorded.
 * `client_secret` (3-D Secure) appears only in the storefront's views — checkout's 201
 * response and the signed-in customer's orders — on a `pending` payment that waits for the
 * customer to authenticate: the storefront hands it to the provider's client library (Stripe.js
 * `handleNextAction`). Admin views and events never carry it.
 */
export interface PaymentSchema extends Named<typeof paymentSchema> {}
const paymentSchema = z
  .object({
    id: z.string(),
    order_id: z.string(),
    provider: z.string(),
    provider_id: z.string().nullable(),
    amount: MoneySchema,
    status: PaymentStatusSchema,
    note: z.string().nullable(),
    metadata: MetadataSchema,
    created_at: DateTimeSchema,
    client_secret: z.string().optional(),
  })
  .meta({ id: 'Payment' });
export const PaymentSchema: PaymentSchema = paymentSchema;
export type Payment = z.infer<typeof PaymentSchema>;

// ---------------------------------------------------------------- requests

/**
 * `POST /v1/admin/orders/{id}/payments` (docs/contract.md#payments): a completed payment taken outside the
 * engine. `provider` is a free label (`cash`, `bank_transfer`); `amount` 1..999,999,999 (MAX_AMOUNT, like every
 * money amount in a request: decisions §15).
 */
export interface AdminPaymentCreateSchema extends Named<typeof adminPaymentCreateSchema> {}
const adminPaymentCreateSchema = z
  .strictObject({
    amount: positiveMoneyInput,
    provider: IdentifierTextSchema,
    note: OptionalLongTextSchema,
    metadata: MetadataInputSchema.default({}),
  })
  .meta({ id: 'AdminPaymentCreate' });
export const AdminPaymentCreateSchema: AdminPaymentCreateSchema = adminPaymentCreateSchema;
export type AdminPaymentCreate = z.infer<typeof AdminPaymentCreateSchema>;
