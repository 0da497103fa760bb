/** The words of this context live in the vocabulary layer, below the storage port (vocabulary/discounts.ts). */
export type {
  DiscountConditionType,
  DiscountTarget,
  DiscountUsageRefusal,
  DiscountValueType,
} from '../vocabulary/discounts';
