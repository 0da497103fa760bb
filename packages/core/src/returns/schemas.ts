import { z } from 'zod';
import {
  DateTimeSchema,
  IdSchema,
  listOf,
  listQuery,
  MetadataInputSchema,
  MetadataSchema,
  type Named,
  OptionalLongTextSchema,
  QuantitySchema,
  QueryTimestampSchema,
} from '../shared/schemas/common';
import { MAX_CART_LINES } from '../shared/schemas/limits';
import {
  RETURN_LINE_CONDITIONS,
  RETURN_REASON_CATEGORIES,
  RETURN_STATUSES,
  RETURN_TYPES,
} from '../vocabulary/returns';

// Return schemas (decisions §18). The public client's types (`Return`, `ReturnLine`,
// `CreateReturnInput`, `ReturnActionInput`, `ReturnListParams`) win over its doc-comment examples:
// `return_type` (not `type`), `admin_notes` (not `note`), no `pending` status.

export type {
  ReturnLineCondition,
  ReturnReasonCategory,
  ReturnStatus,
  ReturnType,
} from '../vocabulary/returns';
export { RETURN_LINE_CONDITIONS, RETURN_REASON_CATEGORIES, RETURN_STATUSES, RETURN_TYPES };

export interface ReturnStatusSchema extends Named<typeof returnStatusSchema> {}
const returnStatusSchema = z.enum(RETURN_STATUSES);
export const ReturnStatusSchema: ReturnStatusSchema = returnStatusSchema;

export interface ReturnTypeSchema extends Named<typeof returnTypeSchema> {}
const returnTypeSchema = z.enum(RETURN_TYPES);
export const ReturnTypeSchema: ReturnTypeSchema = returnTypeSchema;

export interface ReturnReasonCategorySchema extends Named<typeof returnReasonCategorySchema> {}
const returnReasonCategorySchema = z.enum(RETURN_REASON_CATEGORIES);
export const ReturnReasonCategorySchema: ReturnReasonCategorySchema = returnReasonCategorySchema;

export interface ReturnLineConditionSchema extends Named<typeof returnLineConditionSchema> {}
const returnLineConditionSchema = z.enum(RETURN_LINE_CONDITIONS);
export const ReturnLineConditionSchema: ReturnLineConditionSchema = returnLineConditionSchema;

// ---------------------------------------------------------------- responses

/** One line of a return: units of one order line (`product_name`: the order line's snapshot). */
export interface ReturnLineSchema extends Named<typeof returnLineSchema> {}
const returnLineSchema = z
  .object({
    id: z.string(),
    order_line_id: z.string(),
    quantity: z.int(),
    reason: z.string().nullable(),
    condition: ReturnLineConditionSchema.nullable(),
    exchange_variant_id: z.string().nullable(),
    product_name: z.string(),
  })
  .meta({ id: 'ReturnLine' });
export const ReturnLineSchema: ReturnLineSchema = returnLineSchema;
export type ReturnLine = z.infer<typeof ReturnLineSchema>;

/**
 * A return (RMA, decisions §18). `status`: `requested` (the customer asked) → `approved` →
 * `received` → `completed`; `rejected` and `cancelled` end it too. `refund_id` is the refund its
 * completion made (null when none), `exchange_order_id` the exchange order. `admin_notes` is
 * shown to the customer. `lines` is always present.
 */
export interface ReturnSchema extends Named<typeof returnSchema> {}
const returnSchema = z
  .object({
    id: z.string(),
    order_id: z.string(),
    store_id: z.string(),
    customer_id: z.string().nullable(),
    status: ReturnStatusSchema,
    return_type: ReturnTypeSchema,
    reason: z.string().nullable(),
    reason_category: ReturnReasonCategorySchema.nullable(),
    refund_id: z.string().nullable(),
    exchange_order_id: z.string().nullable(),
    admin_notes: z.string().nullable(),
    customer_notes: z.string().nullable(),
    metadata: MetadataSchema,
    lines: z.array(ReturnLineSchema),
    created_at: DateTimeSchema,
    updated_at: DateTimeSchema,
    approved_at: DateTimeSchema.nullable(),
    received_at: DateTimeSchema.nullable(),
    completed_at: DateTimeSchema.nullable(),
    rejected_at: DateTimeSchema.nullable(),
    cancelled_at: DateTimeSchema.nullable(),
  })
  .meta({ id: 'Return' });
export const ReturnSchema: ReturnSchema = returnSchema;
export type Return = z.infer<typeof ReturnSchema>;

export const ReturnListSchema = listOf(ReturnSchema);
export type ReturnList = z.infer<typeof ReturnListSchema>;

// ---------------------------------------------------------------- requests

const returnLineInputSchema = z.strictObject({
  order_line_id: IdSchema,
  quantity: QuantitySchema,
  reason: OptionalLongTextSchema,
  condition: ReturnLineConditionSchema.nullable().optional(),
  exchange_variant_id: IdSchema.optional(),
});

/** The fields both doors accept (the admin adds `admin_notes` and `metadata`). */
const createShape = {
  return_type: ReturnTypeSchema.default('refund'),
  reason: OptionalLongTextSchema,
  reason_category: ReturnReasonCategorySchema.nullable().optional(),
  customer_notes: OptionalLongTextSchema,
  lines: z.array(returnLineInputSchema).min(1).max(MAX_CART_LINES),
};

type CreateBody = {
  return_type: 'refund' | 'exchange';
  lines: ReadonlyArray<{ order_line_id: string; exchange_variant_id?: string | undefined }>;
};

/**
 * The shape rules of a create body (400): each order line once; exchanges name an
 * `exchange_variant_id` on every line (`parameter_missing`), refunds on none (`parameter_invalid`).
 */
function refineCreate(body: CreateBody, ctx: z.RefinementCtx): void {
  const seen = new Map<string, number>();
  body.lines.forEach((line, index) => {
    const first = seen.get(line.order_line_id);
    if (first !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['lines', index, 'order_line_id'],
        message: `repeats lines[${first}][order_line_id]; give each order line once`,
      });
    } else {
      seen.set(line.order_line_id, index);
    }
    if (body.return_type === 'exchange' && line.exchange_variant_id === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['lines', index, 'exchange_variant_id'],
        message: 'is required on every line of an exchange return',
        params: { code: 'parameter_missing' },
      });
    }
    if (body.return_type === 'refund' && line.exchange_variant_id !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['lines', index, 'exchange_variant_id'],
        message: 'is accepted only on exchange returns (return_type "exchange")',
      });
    }
  });
}

/**
 * `POST /v1/storefront/orders/{id}/returns` (the public client's `CreateReturnInput`): 1..250
 * lines, each order line once, `quantity` ≥ 1. `admin_notes` and `metadata` are the merchant's:
 * here they are unknown fields (400 `parameter_unknown`).
 */
export interface StorefrontReturnCreateSchema extends Named<typeof storefrontReturnCreateSchema> {}
const storefrontReturnCreateSchema = z
  .strictObject(createShape)
  .superRefine(refineCreate)
  .meta({ id: 'CreateReturnInput' });
export const StorefrontReturnCreateSchema: StorefrontReturnCreateSchema = storefrontReturnCreateSchema;
export type StorefrontReturnCreate = z.infer<typeof StorefrontReturnCreateSchema>;

/** `POST /v1/admin/orders/{id}/returns`: the storefront's body plus `admin_notes` and `metadata`. */
export interface AdminReturnCreateSchema extends Named<typeof adminReturnCreateSchema> {}
const adminReturnCreateSchema = z
  .strictObject({
    ...createShape,
    admin_notes: OptionalLongTextSchema,
    metadata: MetadataInputSchema.default({}),
  })
  .superRefine(refineCreate)
  .meta({ id: 'AdminCreateReturnInput' });
export const AdminReturnCreateSchema: AdminReturnCreateSchema = adminReturnCreateSchema;
export type AdminReturnCreate = z.infer<typeof AdminReturnCreateSchema>;

/** What the service takes: either door's body (the storefront's has no admin fields). */
export type ReturnCreate = StorefrontReturnCreate & {
  admin_notes?: string | null | undefined;
  metadata?: Record<string, unknown> | undefined;
};

/**
 * `POST /v1/admin/returns/{id}/approve|reject` (the public client's `ReturnActionInput`):
 * `admin_notes`, when sent, replaces the return's (shown to the customer); empty body accepted.
 */
export interface ReturnActionSchema extends Named<typeof returnActionSchema> {}
const returnActionSchema = z
  .strictObject({ admin_notes: OptionalLongTextSchema })
  .meta({ id: 'ReturnActionInput' });
export const ReturnActionSchema: ReturnActionSchema = returnActionSchema;
export type ReturnAction = z.infer<typeof ReturnActionSchema>;

/**
 * `POST /v1/admin/returns/{id}/receive`: `admin_notes` and the inspected `condition` of lines
 * (`lines: [{ id, condition }]`, each line once; it replaces the customer's).
 */
export interface ReturnReceiveSchema extends Named<typeof returnReceiveSchema> {}
const returnReceiveSchema = z
  .strictObject({
    admin_notes: OptionalLongTextSchema,
    lines: z
      .array(z.strictObject({ id: IdSchema, condition: ReturnLineConditionSchema.nullable() }))
      .max(MAX_CART_LINES)
      .optional(),
  })
  .superRefine((body, ctx) => {
    const seen = new Map<string, number>();
    body.lines?.forEach((line, index) => {
      const first = seen.get(line.id);
      if (first !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['lines', index, 'id'],
          message: `repeats lines[${first}][id]; give each return line once`,
        });
      } else seen.set(line.id, index);
    });
  })
  .meta({ id: 'ReturnReceiveInput' });
export const ReturnReceiveSchema: ReturnReceiveSchema = returnReceiveSchema;
export type ReturnReceive = z.infer<typeof ReturnReceiveSchema>;

// ---------------------------------------------------------------- list queries

/** `GET /v1/admin/returns` (the public client's `ReturnListParams` plus the admin's filters). */
export interface AdminReturnListQuerySchema extends Named<typeof adminReturnListQuerySchema> {}
const adminReturnListQuerySchema = listQuery(['created_at'], {
  status: ReturnStatusSchema.optional(),
  order_id: IdSchema.optional(),
  customer_id: IdSchema.optional(),
  created_after: QueryTimestampSchema.optional(),
  created_before: QueryTimestampSchema.optional(),
});
export const AdminReturnListQuerySchema: AdminReturnListQuerySchema = adminReturnListQuerySchema;
export type AdminReturnListQuery = z.infer<typeof AdminReturnListQuerySchema>;

/** `GET /v1/storefront/returns` (`ReturnListParams`): the signed-in customer's returns. */
export interface StorefrontReturnListQuerySchema extends Named<typeof storefrontReturnListQuerySchema> {}
const storefrontReturnListQuerySchema = listQuery(['created_at'], {
  status: ReturnStatusSchema.optional(),
  order_id: IdSchema.optional(),
});
export const StorefrontReturnListQuerySchema: StorefrontReturnListQuerySchema =
  storefrontReturnListQuerySchema;
export type StorefrontReturnListQuery = z.infer<typeof StorefrontReturnListQuerySchema>;
