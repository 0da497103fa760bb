import { z } from 'zod';
import { OrderLineQuantityInputSchema, OrderLineQuantitySchema } from '../fulfillments/schemas';
import {
  DateTimeSchema,
  listOf,
  MoneySchema,
  type Named,
  OptionalLongTextSchema,
  positiveMoneyInput,
} from '../shared/schemas/common';
import { MAX_CART_LINES } from '../shared/schemas/limits';
import type { RefundRecordStatus } from '../vocabulary/refunds';

// Refund schemas (docs/contract.md#refunds). An order shows its refunds (orders/schemas.ts).

/** Refund `status` (docs/contract.md#refunds). */
export const REFUND_STATUSES = [
  'pending',
  'completed',
  'failed',
] as const satisfies readonly RefundRecordStatus[];
export interface RefundStatusSchema extends Named<typeof refundStatusSchema> {}
const refundStatusSchema = z.enum(REFUND_STATUSES);
export const RefundStatusSchema: RefundStatusSchema = refundStatusSchema;

// ---------------------------------------------------------------- responses

/** A refund (spec "Refund"); `reason` is null when none was given. */
export interface RefundSchema extends Named<typeof refundSchema> {}
const refundSchema = z
  .object({
    id: z.string(),
    order_id: z.string(),
    amount: MoneySchema,
    reason: z.string().nullable(),
    restock: z.boolean(),
    status: RefundStatusSchema,
    lines: z.array(OrderLineQuantitySchema),
    created_at: DateTimeSchema,
  })
  .meta({ id: 'Refund' });
export const RefundSchema: RefundSchema = refundSchema;
export type Refund = z.infer<typeof RefundSchema>;

export const RefundListSchema = listOf(RefundSchema);
export type RefundList = z.infer<typeof RefundListSchema>;

// ---------------------------------------------------------------- requests

/**
 * `POST /v1/admin/orders/{id}/refunds` (docs/contract.md#refunds). `amount` (≥ 1) defaults, in the
 * service, to what was paid for the given lines' units; `restock` defaults to false. Limits
 * against what is refundable are business rules (422).
 */
export interface RefundCreateSchema extends Named<typeof refundCreateSchema> {}
const refundCreateSchema = z
  .strictObject({
    reason: OptionalLongTextSchema,
    amount: positiveMoneyInput.optional(),
    restock: z.boolean().default(false),
    lines: z.array(OrderLineQuantityInputSchema).max(MAX_CART_LINES).optional(),
  })
  .superRefine((refund, ctx) => {
    const seen = new Map<string, number>();
    refund.lines?.forEach((line, index) => {
      const first = seen.get(line.order_line_id);
      if (first !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['lines', index, 'order_line_id'],
          message: `repeats lines[${first}][order_line_id]; give each line once`,
        });
      } else {
        seen.set(line.order_line_id, index);
      }
    });
  })
  .meta({ id: 'RefundCreate' });
export const RefundCreateSchema: RefundCreateSchema = refundCreateSchema;
export type RefundCreate = z.infer<typeof RefundCreateSchema>;
