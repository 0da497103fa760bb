/**
 * The words of returns (decisions §18): the values core's rules decide on. They sit below the
 * storage port, whose records (ports/storage/records.ts) use them; the context re-exports them.
 */

export const RETURN_STATUSES = [
  'requested',
  'approved',
  'rejected',
  'received',
  'completed',
  'cancelled',
] as const;
export type ReturnStatus = (typeof RETURN_STATUSES)[number];

export const RETURN_TYPES = ['refund', 'exchange'] as const;
export type ReturnType = (typeof RETURN_TYPES)[number];

export const RETURN_REASON_CATEGORIES = [
  'defective',
  'wrong_item',
  'changed_mind',
  'damaged',
  'other',
] as const;
export type ReturnReasonCategory = (typeof RETURN_REASON_CATEGORIES)[number];

export const RETURN_LINE_CONDITIONS = ['unopened', 'opened', 'damaged', 'defective'] as const;
export type ReturnLineCondition = (typeof RETURN_LINE_CONDITIONS)[number];
