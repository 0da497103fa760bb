import type { DiscountConditionRecord, DiscountRecord, PageRequest, Scope } from '../ports/storage';
import type { ServiceContext } from '../shared/context';
import { CommerceError } from '../shared/errors';
import { amountInStoreCurrency } from '../shared/money-input';
import type { MoneyInput } from '../shared/schemas/common';
import { read, write } from '../shared/unit-of-work';
import type { AdminDiscountListQuery, DiscountConditionInput, DiscountUpdate } from './schemas';
import { discountValueProblem } from './schemas';
import type { DiscountTarget, DiscountValueType } from './vocabulary';
import { discountPageToWire, discountToWire } from './wire';

/**
 * The parsed body of `POST /v1/admin/discounts` (the output of `DiscountCreateSchema`, written out
 * because the schema's inferred type is widened by its `.overwrite` step): `target` and `value`
 * are filled in by the schema.
 */
export interface DiscountCreateInput {
  name: string;
  description?: string | null | undefined;
  code?: string | null | undefined;
  type: 'code' | 'automatic';
  value_type: DiscountValueType;
  value: number;
  target: DiscountTarget;
  usage_limit?: number | null | undefined;
  per_customer_limit?: number | null | undefined;
  minimum_amount?: MoneyInput | null | undefined;
  maximum_discount?: MoneyInput | null | undefined;
  /** Epoch ms (the schema parses ISO input). */
  starts_at?: number | null | undefined;
  ends_at?: number | null | undefined;
  is_active: boolean;
  conditions: DiscountConditionInput[];
  metadata: DiscountRecord['metadata'];
}

/**
 * Admin CRUD of discounts (docs/contract.md#discounts). Codes are unique per store and mode,
 * case-insensitively (409 `duplicate_code`, param `code`, enforced by the storage). Money bounds
 * are taken in the store currency (422 `currency_mismatch` otherwise).
 *
 * Decisions:
 * - `type` cannot change once created (a code discount and an automatic one are applied in
 *   different ways, and carts may hold the code): a different `type` in PATCH → 400
 *   `parameter_invalid`, param `type`; the same type is accepted.
 * - PATCH checks the rules between fields against the stored discount too: a code discount keeps a
 *   code (`code: null` → 400), an automatic one has none, `value` fits `value_type`, a
 *   `free_shipping` discount targets `shipping` (switching to free_shipping without a target
 *   moves the target to `shipping` and the value to 0), and `ends_at` is after `starts_at`.
 * - DELETE is a soft delete: the discount stops applying at once (carts holding its code keep the
 *   code, which then prices as unknown), and orders keep their snapshots.
 * - No events: the spec lists none for discounts.
 */
export function createDiscountService(ctx: ServiceContext) {
  async function requireStoreCurrency(scope: Scope): Promise<string> {
    const store = await read(ctx, (tx) => tx.stores.get(scope.store_id));
    if (!store) throw new CommerceError('not_found', 'No such store');
    return store.currency;
  }

  function conditionsOf(inputs: readonly DiscountConditionInput[]): DiscountConditionRecord[] {
    return inputs.map((input) => ({
      id: ctx.ids.next('cond'),
      type: input.type,
      operator: input.operator,
      values: [...input.values],
    }));
  }

  return {
    /** `POST /v1/admin/discounts`. */
    async create(scope: Scope, input: DiscountCreateInput) {
      const currency = await requireStoreCurrency(scope);
      const minimum_amount = amountInStoreCurrency(input.minimum_amount ?? null, currency, 'minimum_amount');
      const maximum_discount = amountInStoreCurrency(
        input.maximum_discount ?? null,
        currency,
        'maximum_discount',
      );
      return write(ctx, scope, async ({ tx, now }) => {
        const record: DiscountRecord = {
          id: ctx.ids.next('disc'),
          store_id: scope.store_id,
          mode: scope.mode,
          name: input.name,
          description: input.description ?? null,
          code: input.type === 'code' ? (input.code ?? null) : null,
          type: input.type,
          value_type: input.value_type,
          value: input.value_type === 'free_shipping' ? 0 : input.value,
          target: input.target,
          usage_limit: input.usage_limit ?? null,
          usage_count: 0,
          per_customer_limit: input.per_customer_limit ?? null,
          minimum_amount,
          maximum_discount,
          currency,
          starts_at: input.starts_at ?? null,
          ends_at: input.ends_at ?? null,
          is_active: input.is_active,
          conditions: conditionsOf(input.conditions),
          metadata: input.metadata,
          created_at: now,
          updated_at: now,
        };
        await tx.discounts.insert(record);
        return discountToWire(record);
      });
    },

    /** `GET /v1/admin/discounts`: filters `type` and `is_active`, newest first. */
    async list(scope: Scope, query: AdminDiscountListQuery) {
      const page: PageRequest<'created_at'> = {
        limit: query.limit,
        starting_after: query.starting_after,
        sort: 'created_at',
        order: query.order ?? 'desc',
      };
      const result = await read(ctx, (tx) =>
        tx.discounts.list(scope, { type: query.type, is_active: query.is_active }, page),
      );
      return discountPageToWire(result);
    },

    /** `GET /v1/admin/discounts/{id}`. */
    async get(scope: Scope, id: string) {
      const record = await read(ctx, (tx) => tx.discounts.get(scope, id));
      if (!record) throw notFound(id);
      return discountToWire(record);
    },

    /** `PATCH /v1/admin/discounts/{id}` (see the decisions above). */
    async update(scope: Scope, id: string, input: DiscountUpdate) {
      const currency = await requireStoreCurrency(scope);
      const minimum_amount =
        input.minimum_amount === undefined
          ? undefined
          : amountInStoreCurrency(input.minimum_amount, currency, 'minimum_amount');
      const maximum_discount =
        input.maximum_discount === undefined
          ? undefined
          : amountInStoreCurrency(input.maximum_discount, currency, 'maximum_discount');
      return write(ctx, scope, async ({ tx, now }) => {
        const current = await tx.discounts.get(scope, id);
        if (!current) throw notFound(id);
        const merged = mergeRules(current, input);
        const updated = await tx.discounts.update(scope, id, {
          updated_at: now,
          ...(input.name !== undefined && { name: input.name }),
          ...(input.description !== undefined && { description: input.description }),
          ...(input.code !== undefined && { code: input.code }),
          ...(merged.value_type !== current.value_type && { value_type: merged.value_type }),
          ...(merged.value !== current.value && { value: merged.value }),
          ...(merged.target !== current.target && { target: merged.target }),
          ...(input.usage_limit !== undefined && { usage_limit: input.usage_limit }),
          ...(input.per_customer_limit !== undefined && { per_customer_limit: input.per_customer_limit }),
          ...(minimum_amount !== undefined && { minimum_amount }),
          ...(maximum_discount !== undefined && { maximum_discount }),
          ...(input.starts_at !== undefined && { starts_at: input.starts_at }),
          ...(input.ends_at !== undefined && { ends_at: input.ends_at }),
          ...(input.is_active !== undefined && { is_active: input.is_active }),
          ...(input.conditions !== undefined && { conditions: conditionsOf(input.conditions) }),
          ...(input.metadata !== undefined && { metadata: input.metadata }),
        });
        if (!updated) throw notFound(id);
        return discountToWire(updated);
      });
    },

    /** `DELETE /v1/admin/discounts/{id}` → `{ id, deleted: true }`. */
    async delete(scope: Scope, id: string) {
      return write(ctx, scope, async ({ tx, now }) => {
        const deleted = await tx.discounts.delete(scope, id, now);
        if (!deleted) throw notFound(id);
        return { id, deleted: true as const };
      });
    },
  };
}

export type DiscountService = ReturnType<typeof createDiscountService>;

function notFound(id: string): CommerceError {
  return new CommerceError('not_found', `No such discount: '${id}'`);
}

/**
 * The value type, value and target a PATCH leaves, checked against the stored discount.
 * @throws CommerceError `parameter_invalid` / `parameter_missing` with the field at fault.
 */
export function mergeRules(
  current: DiscountRecord,
  input: DiscountUpdate,
): { value_type: DiscountValueType; value: number; target: DiscountTarget } {
  if (input.type !== undefined && input.type !== current.type) {
    throw new CommerceError('parameter_invalid', 'The type of a discount cannot be changed', {
      param: 'type',
    });
  }
  if (input.code !== undefined) {
    if (current.type === 'code' && input.code === null) {
      throw new CommerceError('parameter_invalid', "A discount of type 'code' needs a code", {
        param: 'code',
      });
    }
    if (current.type === 'automatic' && input.code !== null) {
      throw new CommerceError('parameter_invalid', "must not be set when type is 'automatic'", {
        param: 'code',
      });
    }
  }
  const value_type = input.value_type ?? current.value_type;
  let target = input.target ?? current.target;
  let value = input.value ?? current.value;
  if (value_type === 'free_shipping') {
    value = 0;
    if (input.target === undefined) target = 'shipping';
    if (target !== 'shipping') {
      throw new CommerceError('parameter_invalid', "must be 'shipping' for a free_shipping discount", {
        param: 'target',
      });
    }
  } else {
    const problem = discountValueProblem(value_type, value);
    if (problem !== null) {
      const missing = input.value === undefined;
      throw new CommerceError(
        missing ? 'parameter_missing' : 'parameter_invalid',
        missing ? `value is required for a ${value_type} discount` : `value ${problem}`,
        { param: 'value' },
      );
    }
  }
  const starts_at = input.starts_at !== undefined ? input.starts_at : current.starts_at;
  const ends_at = input.ends_at !== undefined ? input.ends_at : current.ends_at;
  if (starts_at !== null && ends_at !== null && ends_at <= starts_at) {
    throw new CommerceError('parameter_invalid', 'ends_at must be after starts_at', { param: 'ends_at' });
  }
  return { value_type, value, target };
}
