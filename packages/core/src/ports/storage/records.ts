import type { CartStatus } from '../../vocabulary/carts';
import type { ProductStatus, ProductType } from '../../vocabulary/catalog';
import type { CustomerStatus } from '../../vocabulary/customers';
import type { DiscountConditionType, DiscountTarget, DiscountValueType } from '../../vocabulary/discounts';
import type {
  CarrierEventStatus,
  FulfillmentRecordStatus,
  FulfillmentStatus,
  OrderStatus,
} from '../../vocabulary/orders';
import type { PaymentRecordStatus, PaymentStatus } from '../../vocabulary/payments';
import type { RefundRecordStatus } from '../../vocabulary/refunds';
import type {
  ReturnLineCondition,
  ReturnReasonCategory,
  ReturnStatus,
  ReturnType,
} from '../../vocabulary/returns';
import type { KeyType } from '../../vocabulary/store';
import type { WebhookDeliveryStatus } from '../../vocabulary/webhooks';
import type { JsonObject, Millis, Mode } from './scope';

export type { CartStatus } from '../../vocabulary/carts';
export type { ProductStatus, ProductType } from '../../vocabulary/catalog';
export type {
  DiscountConditionType,
  DiscountTarget,
  DiscountUsageRefusal,
  DiscountValueType,
} from '../../vocabulary/discounts';
export type {
  CarrierEventStatus,
  FulfillmentRecordStatus,
  FulfillmentStatus,
  OrderStatus,
} from '../../vocabulary/orders';
export type { PaymentRecordStatus, PaymentStatus } from '../../vocabulary/payments';
export type { RefundRecordStatus } from '../../vocabulary/refunds';
export type {
  ReturnLineCondition,
  ReturnReasonCategory,
  ReturnStatus,
  ReturnType,
} from '../../vocabulary/returns';
export type { KeyType } from '../../vocabulary/store';
export type { WebhookDeliveryStatus } from '../../vocabulary/webhooks';

/**
 * Storage records: snake_case, close to the wire, money as integer minor units in the row's
 * `currency`, time as epoch milliseconds, JSON fields (metadata, attributes, tags, addresses) as
 * plain values that round-trip exactly. Scoped records carry `store_id` and `mode`.
 */
interface Scoped {
  store_id: string;
  mode: Mode;
}

// ---------------------------------------------------------------- organization, store, keys

export interface OrganizationRecord {
  id: string;
  name: string;
  plan: string;
  billing_email: string | null;
  metadata: JsonObject;
  created_at: Millis;
  updated_at: Millis;
}

/** Store settings are shared by both modes (docs/contract.md#store-settings). */
export interface StoreRecord {
  id: string;
  organization_id: string;
  name: string;
  /** Derived from the name, unique across the database (decisions §22); null until core sets it. */
  slug: string | null;
  currency: string;
  timezone: string;
  prices_include_tax: boolean;
  /** Percentage, 20 = 20 %; decimals such as 8.875 round-trip exactly. */
  tax_rate: number;
  /** Days after its latest shipment a line may be returned from the storefront; null = no window (decisions §18). */
  return_window_days: number | null;
  metadata: JsonObject;
  created_at: Millis;
  updated_at: Millis;
}

export interface ApiKeyRecord extends Scoped {
  id: string;
  name: string | null;
  key_type: KeyType;
  /** SHA-256 hex of the full key; the key itself is never stored. */
  key_hash: string;
  /** What may be shown back: e.g. `sk_test_4fA2`. */
  key_prefix: string;
  last_used_at: Millis | null;
  expires_at: Millis | null;
  revoked_at: Millis | null;
  created_at: Millis;
}

export interface CustomerTokenRecord extends Scoped {
  id: string;
  customer_id: string;
  /** SHA-256 hex of the token. */
  token_hash: string;
  expires_at: Millis;
  created_at: Millis;
}

/** A password reset token (docs/contract.md#password-reset): single-use, stored only as its SHA-256 hash. */
export interface PasswordResetRecord extends Scoped {
  id: string;
  customer_id: string;
  /** SHA-256 hex of the `prt_…` token. */
  token_hash: string;
  expires_at: Millis;
  created_at: Millis;
}

// ---------------------------------------------------------------- organization members (decisions §23)

/** A staff role: `admin` manages everything, `member` the shop's daily work (decisions §23). */
export type StaffRole = 'admin' | 'member';

/** A member of the organization (shared by both modes): e-mails unique case-insensitively. */
export interface MemberRecord {
  id: string;
  organization_id: string;
  /** The host's identity (≤ 255), unique per organization; the member's `id` when not given. */
  user_id: string;
  email: string;
  role: StaffRole;
  /** The encoded scrypt hash; null until the invitation is accepted. */
  password_hash: string | null;
  invited_at: Millis | null;
  accepted_at: Millis | null;
  created_at: Millis;
  updated_at: Millis;
}

/** A single-use invitation token (`mit_…`), stored only as its SHA-256. */
export interface MemberTokenRecord {
  id: string;
  organization_id: string;
  member_id: string;
  token_hash: string;
  expires_at: Millis;
  created_at: Millis;
}

/** A staff session (the console's cookie, `sst_…`), stored only as its SHA-256. */
export interface StaffSessionRecord {
  id: string;
  organization_id: string;
  member_id: string;
  token_hash: string;
  expires_at: Millis;
  created_at: Millis;
}

// ---------------------------------------------------------------- catalog

export interface ProductRecord extends Scoped {
  id: string;
  name: string;
  slug: string;
  description: string | null;
  type: ProductType;
  status: ProductStatus;
  tags: string[];
  attributes: JsonObject;
  metadata: JsonObject;
  /**
   * Price of the representative variant (the cheapest active one, docs/contract.md#representative-price), or null.
   * A plain column: core computes it (catalog/representative-price.ts) and sets it on `insert` and
   * through `update` after every variant change; the storage stores, filters and sorts by it.
   */
  price: number | null;
  currency: string;
  created_at: Millis;
  updated_at: Millis;
  /**
   * The categories the product belongs to, in the order given (decisions §17, ≤ 50 distinct).
   * Reads always set it; absent on insert means none. Kept as the wire value on the product row,
   * with one `product_categories` row per category written in the same transaction.
   */
  category_ids?: string[];
}

export interface ImageRecord {
  id: string;
  product_id: string;
  url: string;
  alt_text: string | null;
  position: number;
  width: number | null;
  height: number | null;
  /** Variants this image is attached to (Variant.images). */
  variant_ids: string[];
}

export interface OptionValueRecord {
  id: string;
  option_id: string;
  value: string;
  position: number;
}

export interface OptionRecord {
  id: string;
  product_id: string;
  name: string;
  position: number;
  values: OptionValueRecord[];
}

export interface InventoryRecord extends Scoped {
  id: string;
  variant_id: string;
  product_id: string;
  track_inventory: boolean;
  allow_backorder: boolean;
  safety_stock: number;
  on_hand: number;
  reserved: number;
  metadata: JsonObject;
  created_at: Millis;
  updated_at: Millis;
}

export interface VariantRecord extends Scoped {
  id: string;
  product_id: string;
  sku: string | null;
  barcode: string | null;
  price: number;
  compare_at_price: number | null;
  cost_price: number | null;
  currency: string;
  /** Grams. */
  weight: number | null;
  /** Dimensions (numbers ≥ 0, decisions §22); null when not given. */
  width: number | null;
  height: number | null;
  depth: number | null;
  is_active: boolean;
  /** Ordered like the product's options. */
  option_value_ids: string[];
  position: number;
  metadata: JsonObject;
  created_at: Millis;
  updated_at: Millis;
}

export interface VariantWithInventory extends VariantRecord {
  inventory: InventoryRecord;
}

/** A product with everything the Product resource shows, loaded in a fixed number of queries. */
export interface ProductAggregate extends ProductRecord {
  options: OptionRecord[];
  variants: VariantWithInventory[];
  images: ImageRecord[];
}

/**
 * What carts, checkout and admin orders need of a variant: the variant, its inventory and the
 * fields of its product that pricing and snapshots use. Loaded for many variants in one query.
 */
export interface PurchasableVariant {
  variant: VariantRecord;
  inventory: InventoryRecord;
  product: Pick<ProductRecord, 'id' | 'name' | 'status' | 'type' | 'tags'> & { deleted: boolean };
  /** `variant_name` per docs/contract.md#catalog: option values joined by " / ", or the product name. */
  variant_name: string;
  /** The variant's option values by option name (`{ Size: 'M' }`; `{}` without options), decisions §22. */
  option_values: Record<string, string>;
  image_url: string | null;
}

export interface ShippingMethodRecord extends Scoped {
  id: string;
  name: string;
  description: string | null;
  price: number;
  free_shipping_threshold: number | null;
  currency: string;
  is_active: boolean;
  position: number;
  metadata: JsonObject;
  created_at: Millis;
  updated_at: Millis;
}

// ---------------------------------------------------------------- discounts

export interface DiscountConditionRecord {
  id: string;
  type: DiscountConditionType;
  operator: 'in' | 'not_in';
  values: string[];
}

export interface DiscountRecord extends Scoped {
  id: string;
  name: string;
  description: string | null;
  /** Unique per scope, compared case-insensitively; null for automatic discounts. */
  code: string | null;
  type: 'code' | 'automatic';
  value_type: DiscountValueType;
  /** Minor units for `fixed`, percent for `percentage` (0 < v ≤ 100), 0 for `free_shipping`. */
  value: number;
  target: DiscountTarget;
  usage_limit: number | null;
  usage_count: number;
  per_customer_limit: number | null;
  minimum_amount: number | null;
  maximum_discount: number | null;
  currency: string;
  starts_at: Millis | null;
  ends_at: Millis | null;
  is_active: boolean;
  conditions: DiscountConditionRecord[];
  metadata: JsonObject;
  created_at: Millis;
  updated_at: Millis;
}

// ---------------------------------------------------------------- customers

/**
 * A cart or order address, stored as a JSON value: blank parts are omitted. `first_name`,
 * `last_name`, `label` and `receiver_name` came with decisions §22; values stored before them
 * simply lack them (read as `null` on the wire).
 */
export interface AddressValue {
  name?: string | undefined;
  first_name?: string | undefined;
  last_name?: string | undefined;
  company?: string | undefined;
  label?: string | undefined;
  receiver_name?: string | undefined;
  line1?: string | undefined;
  line2?: string | undefined;
  city?: string | undefined;
  state?: string | undefined;
  postal_code?: string | undefined;
  country?: string | undefined;
  phone?: string | undefined;
}

export interface CustomerRecord extends Scoped {
  id: string;
  /** Unique per scope, compared case-insensitively. */
  email: string;
  first_name: string | null;
  last_name: string | null;
  phone: string | null;
  external_id: string | null;
  status: CustomerStatus;
  tags: string[];
  metadata: JsonObject;
  /**
   * The encoded password hash (`scrypt$…`, parameters and salt included; see core's
   * `customers/passwords.ts`), or null for a customer without a password. Never sent out.
   */
  password_hash: string | null;
  created_at: Millis;
  updated_at: Millis;
}

export interface CustomerAddressRecord extends Scoped {
  id: string;
  customer_id: string;
  name: string;
  /** The SDK's `CartAddress` parts (decisions §22); null when only `name` was given. */
  first_name: string | null;
  last_name: string | null;
  company: string | null;
  /** The address book's own label (≤ 100) and receiver (≤ 255), decisions §22. */
  label: string | null;
  receiver_name: string | null;
  line1: string;
  line2: string | null;
  city: string;
  state: string | null;
  postal_code: string;
  country: string;
  phone: string | null;
  type: 'shipping' | 'billing' | 'both';
  is_default: boolean;
  created_at: Millis;
  updated_at: Millis;
}

// ---------------------------------------------------------------- carts

export interface CartItemRecord {
  id: string;
  cart_id: string;
  variant_id: string;
  quantity: number;
  metadata: JsonObject;
  created_at: Millis;
  updated_at: Millis;
}

export interface CartRecord extends Scoped {
  id: string;
  status: CartStatus;
  session_id: string | null;
  customer_id: string | null;
  email: string | null;
  shipping_address: AddressValue | null;
  billing_address: AddressValue | null;
  shipping_method_id: string | null;
  /** In the order they were added. */
  discount_codes: string[];
  /** The currency the cart is priced in: its region's, else the store's (decisions §19). */
  currency: string;
  /** The region the cart is priced in (decisions §19), or null: the store's settings. */
  region_id: string | null;
  metadata: JsonObject;
  created_at: Millis;
  updated_at: Millis;
  completed_at: Millis | null;
  /** The shopper's language (a store locale's tag, decisions §21), or null: checkout snapshots line names in it. */
  locale: string | null;
}

export interface CartAggregate extends CartRecord {
  /** In the order they were added. */
  items: CartItemRecord[];
}

/**
 * A cart read `forUpdate` (locked, then read): the aggregate and its open checkout attempt —
 * the id of a payment of this cart still `pending` without an order (`isOpenAttempt`), else
 * null. While one is open the order will be written from the attempt's snapshot, so the cart
 * must not change (docs/contract.md#cart-concurrency).
 */
export interface LockedCart extends CartAggregate {
  open_checkout_payment_id: string | null;
}

// ---------------------------------------------------------------- orders

export interface AppliedDiscountValue {
  discount_id: string;
  code: string | null;
  name: string;
  value_type: string;
  value: number;
  saved: number;
}

export interface OrderRecord extends Scoped {
  id: string;
  /** Per store and mode, from 1001, gap-free (docs/contract.md#order-numbers). */
  number: number;
  status: OrderStatus;
  payment_status: PaymentStatus;
  fulfillment_status: FulfillmentStatus;
  customer_id: string | null;
  email: string;
  shipping_address: AddressValue | null;
  billing_address: AddressValue | null;
  /** The region the order was priced in (decisions §19), or null: the store's settings. */
  region_id: string | null;
  currency: string;
  subtotal: number;
  discount_total: number;
  shipping_total: number;
  tax_total: number;
  total: number;
  /** Sum of completed payments. */
  paid_total: number;
  /** Sum of completed refunds. */
  refunded_total: number;
  prices_include_tax: boolean;
  tax_rate: number;
  shipping_method_id: string | null;
  shipping_method_name: string | null;
  shipping_discount: number;
  shipping_tax: number;
  applied_discounts: AppliedDiscountValue[];
  note: string | null;
  metadata: JsonObject;
  cart_id: string | null;
  /** True while the order holds inventory reservations (pending and later, until cancelled). */
  inventory_reserved: boolean;
  cancel_reason: string | null;
  created_at: Millis;
  updated_at: Millis;
  /** When the order became `confirmed`; null before (and for orders older than the column). */
  confirmed_at: Millis | null;
  cancelled_at: Millis | null;
  completed_at: Millis | null;
}

export interface OrderLineRecord {
  id: string;
  order_id: string;
  variant_id: string;
  product_id: string;
  product_name: string;
  variant_name: string;
  sku: string | null;
  image_url: string | null;
  /** The variant's option values at order time, `{ option name: value }` (decisions §22). */
  option_values: Record<string, string>;
  quantity: number;
  /** Units in non-cancelled fulfillments. */
  fulfilled_quantity: number;
  /** Units of those fulfillments that have shipped (left on_hand). */
  shipped_quantity: number;
  refunded_quantity: number;
  /** Refunded units that were restocked (docs/contract.md#restock). */
  restocked_quantity: number;
  /** Units of this line that came back through completed returns (decisions §18). */
  returned_quantity: number;
  /**
   * Units of this line held by the order's open returns (`requested`, `approved`, `received`):
   * no longer returnable (decisions §18). Changed only under the order's row lock.
   */
  returning_quantity: number;
  /**
   * Units of this line the order put in `reserved` when it reserved its inventory (checkout, a
   * pending admin order, a finalised draft): the line's quantity when its variant was tracked at
   * that moment, else 0 (and 0 for a draft). Fixed from then on; what the line still holds is
   * derived (`heldReservations`). Releases, shipments and restocks move exactly these units,
   * whatever the variant's `track_inventory` is later. Not part of the wire.
   */
  reserved_quantity: number;
  unit_price: number;
  line_discount: number;
  line_total: number;
  tax_amount: number;
  position: number;
}

export interface PaymentRecord extends Scoped {
  id: string;
  order_id: string | null;
  provider: string;
  provider_id: string | null;
  amount: number;
  currency: string;
  status: PaymentRecordStatus;
  /** For checkout attempts: the key sent to the provider, derived from the cart. */
  idempotency_key: string | null;
  cart_id: string | null;
  client_secret: string | null;
  failure_reason: string | null;
  note: string | null;
  metadata: JsonObject;
  /**
   * A checkout attempt's snapshot (core checkout/checkout-attempts.ts `CheckoutSnapshot`: the
   * order to write and the exact provider input) from its claim until it is settled; null on
   * every other payment.
   */
  checkout_snapshot: JsonObject | null;
  created_at: Millis;
  updated_at: Millis;
}

export interface FulfillmentLineValue {
  order_line_id: string;
  quantity: number;
}

export interface FulfillmentRecord extends Scoped {
  id: string;
  order_id: string;
  status: FulfillmentRecordStatus;
  tracking_number: string | null;
  tracking_url: string | null;
  carrier: string | null;
  /** The carrier's code (decisions §20, e.g. `cj`, `ups`), at most 64 characters. */
  carrier_code: string | null;
  lines: FulfillmentLineValue[];
  metadata: JsonObject;
  created_at: Millis;
  updated_at: Millis;
  shipped_at: Millis | null;
  delivered_at: Millis | null;
  /** When the carrier expects to deliver (decisions §20). */
  estimated_delivery: Millis | null;
}

/**
 * A carrier's tracking event on a fulfillment (decisions §20), posted by the merchant or a carrier
 * integration. `sequence` numbers a fulfillment's events in insertion order (1, 2, …), unique per
 * fulfillment; `occurred_at` is the event's own `timestamp`.
 */
export interface FulfillmentTrackingEventRecord extends Scoped {
  fulfillment_id: string;
  sequence: number;
  status: CarrierEventStatus;
  description: string;
  location: string | null;
  occurred_at: Millis;
  created_at: Millis;
}

export interface RefundRecord extends Scoped {
  id: string;
  order_id: string;
  amount: number;
  currency: string;
  reason: string | null;
  restock: boolean;
  status: RefundRecordStatus;
  lines: FulfillmentLineValue[];
  provider_refund_id: string | null;
  metadata: JsonObject;
  /** Where the refund's restocked units went (core refunds/restock-split.ts); empty when none. */
  restock_movements: RestockMovementValue[];
  /**
   * The provider calls of a refund recorded `pending` BEFORE them (in flight), kept until it
   * settles so that a retry asks for exactly the same slices; null otherwise.
   */
  provider_calls: RefundProviderCallValue[] | null;
  /** The provider's reason for a refund that failed at its provider after it was applied, else null. */
  failure_message: string | null;
  created_at: Millis;
  updated_at: Millis;
}

/** One restock movement of a refund, per order line (core refunds/restock-split.ts `RestockMovement`). */
export interface RestockMovementValue {
  order_line_id: string;
  from_reserved: number;
  to_on_hand: number;
  returned_quantity: number;
  /** Units taken out of pending fulfillments; absent in movements recorded before it existed. */
  from_fulfillments?: { fulfillment_id: string; quantity: number }[];
}

/** One provider call of a refund in flight: which payment gives back how much (minor units). */
export interface RefundProviderCallValue {
  payment_id: string;
  amount: number;
}

/** A return (RMA) of an order's units (decisions §18), with its lines. */
export interface ReturnRecord extends Scoped {
  id: string;
  order_id: string;
  /** The order's customer when the return was created (null for a guest order). */
  customer_id: string | null;
  status: ReturnStatus;
  return_type: ReturnType;
  reason: string | null;
  reason_category: ReturnReasonCategory | null;
  refund_id: string | null;
  exchange_order_id: string | null;
  admin_notes: string | null;
  customer_notes: string | null;
  metadata: JsonObject;
  lines: ReturnLineRecord[];
  created_at: Millis;
  updated_at: Millis;
  approved_at: Millis | null;
  received_at: Millis | null;
  completed_at: Millis | null;
  rejected_at: Millis | null;
  cancelled_at: Millis | null;
}

/** One line of a return: units of one order line. */
export interface ReturnLineRecord {
  id: string;
  return_id: string;
  order_line_id: string;
  quantity: number;
  reason: string | null;
  condition: ReturnLineCondition | null;
  exchange_variant_id: string | null;
  /** The order line's product name snapshot. */
  product_name: string;
  position: number;
}

export interface OrderAggregate extends OrderRecord {
  lines: OrderLineRecord[];
  payments: PaymentRecord[];
  fulfillments: FulfillmentRecord[];
  refunds: RefundRecord[];
}

// ---------------------------------------------------------------- events, webhooks, notifications

export interface EventRecord extends Scoped {
  id: string;
  type: string;
  /** The affected resource as the wire shows it. */
  data: JsonObject;
  created_at: Millis;
}

export interface WebhookRecord extends Scoped {
  id: string;
  url: string;
  /** Event types, or ['*']. */
  events: string[];
  /**
   * Since when (epoch ms) each event type is received, for types added after the webhook was
   * created (PATCH `events`) or re-activated; a listed type without an entry counts from
   * `created_at`. Decided by `subscribedSince` (docs/contract.md#webhook-subscriptions). Not part of the wire.
   */
  events_since: Record<string, Millis>;
  /** Kept to sign deliveries; shown only in the create and rotate-secret responses. */
  secret: string;
  /**
   * The secret before the latest rotation (`rotate-secret`), which keeps signing deliveries
   * alongside `secret` until `previous_secret_expires_at` (docs/contract.md#standard-webhooks: 24 h); null when none.
   */
  previous_secret: string | null;
  previous_secret_expires_at: Millis | null;
  is_active: boolean;
  consecutive_failures: number;
  metadata: JsonObject;
  created_at: Millis;
  updated_at: Millis;
}

export interface WebhookDeliveryRecord extends Scoped {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  /** The exact body that is signed and sent, identical on every attempt. */
  payload: string;
  status: WebhookDeliveryStatus;
  attempt_count: number;
  next_attempt_at: Millis | null;
  /** A claim: while `lease_until` > now, no other worker takes this delivery. */
  lease_until: Millis | null;
  leased_by: string | null;
  last_status_code: number | null;
  last_error: string | null;
  last_duration_ms: number | null;
  created_at: Millis;
  updated_at: Millis;
}

export interface WebhookAttemptRecord {
  id: string;
  delivery_id: string;
  attempt: number;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  succeeded: boolean;
  created_at: Millis;
}

/** A claimed delivery with what the sender needs. */
export interface ClaimedDelivery {
  delivery: WebhookDeliveryRecord;
  url: string;
  secret: string;
  /** The webhook's previous secret and until when it still signs (see `WebhookRecord`). */
  previous_secret: string | null;
  previous_secret_expires_at: Millis | null;
}

export interface NotificationRecord extends Scoped {
  id: string;
  type: string;
  message: string;
  data: JsonObject;
  created_at: Millis;
}

// ---------------------------------------------------------------- categories

/** A category of the store and mode's tree (decisions §17); `parent_id` null for a root. */
export interface CategoryRecord extends Scoped {
  id: string;
  parent_id: string | null;
  name: string;
  slug: string;
  description: string | null;
  position: number;
  metadata: JsonObject;
  created_at: Millis;
  updated_at: Millis;
}

// ---------------------------------------------------------------- collections

/**
 * A collection (decisions §17). A manual one's members are rows of their own (the repository's
 * `setMembers` / `members`); an automatic one keeps its `rules` (null on a manual one).
 */
export interface CollectionRecord extends Scoped {
  id: string;
  name: string;
  slug: string;
  description: string | null;
  type: import('../../vocabulary/collections').CollectionType;
  rules: import('../../vocabulary/collections').CollectionRules | null;
  position: number;
  metadata: JsonObject;
  created_at: Millis;
  updated_at: Millis;
}
