/**
 * `@cartwright/core/storage-rules`: the rules core runs on a storage adapter, for the adapter's
 * own tests and `@cartwright/storage-conformance` to drive a storage exactly as the engine does.
 * An adapter implements the port's primitives (`@cartwright/core/storage`); these decide:
 *
 * - stock movements (`reserveInventory`, `releaseInventory`, `shipInventory`, `restockInventory`,
 *   `adjustInventory`, `updateInventory`): each plans on the rows at hand or on rows read with
 *   the lock, and writes the plan through the port's compare-and-set (`inventory.apply`);
 * - webhook subscriptions (`subscribedSince`, `receivesEvent`): which webhooks an event reaches
 *   and since when (docs/contract.md#webhook-subscriptions);
 * - search relevance (`relevanceTier` and the word-start text `nameWordsText` / `wordStartNeedle`
 *   a storage keeps and compares to rank `sort=relevance`, catalog/relevance.ts);
 * - collections (`compileRules`, `matchesRules`): an auto collection's rules as a storage's
 *   product filter receives them, and the reference evaluation its SQL must agree with
 *   (collections/rules.ts).
 *
 * Stable: these names and signatures follow semver like `@cartwright/core` itself.
 */

export {
  compareRelevance,
  nameWordsText,
  type RelevanceRow,
  type RelevanceTier,
  relevanceTier,
  searchText,
  WORD_MARK,
  wordStartNeedle,
} from './catalog/relevance';
export {
  type CategoryNode,
  compileRules,
  matchesRules,
  type RuleProduct,
  withDescendants,
} from './collections/rules';
export type {
  InventoryRestock,
  InventoryShipment,
  ReservationPlan,
  ReservationRefusal,
} from './inventory/inventory-plan';
export {
  adjustInventory,
  type BelowReserved,
  releaseInventory,
  reserveInventory,
  restockInventory,
  shipInventory,
  updateInventory,
} from './inventory/inventory-writes';
export { receivesEvent, subscribedSince, type WebhookSubscription } from './webhooks/subscriptions';
