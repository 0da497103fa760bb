import type {
  ApiKeyRepository,
  ApiLogRepository,
  CartRepository,
  CategoryRepository,
  CollectionRepository,
  CustomerRepository,
  CustomerTokenRepository,
  DashboardRepository,
  DiscountRepository,
  EventRepository,
  IdempotencyRepository,
  InventoryRepository,
  LocaleRepository,
  MemberRepository,
  MemberTokenRepository,
  NotificationRepository,
  OrderRepository,
  OrganizationRepository,
  PasswordResetRepository,
  ProductRepository,
  RateLimitRepository,
  RegionProductPriceRepository,
  RegionRepository,
  ReturnRepository,
  ShippingMethodRepository,
  StaffSessionRepository,
  StoreRepository,
  TranslationRepository,
  WebhookRepository,
} from './repositories';
import type { StorefrontReadModel } from './storefront-read-model';

/** Every repository, bound to one connection or transaction. */
export interface Repositories {
  organizations: OrganizationRepository;
  stores: StoreRepository;
  apiKeys: ApiKeyRepository;
  customerTokens: CustomerTokenRepository;
  passwordResets: PasswordResetRepository;
  members: MemberRepository;
  memberTokens: MemberTokenRepository;
  staffSessions: StaffSessionRepository;
  products: ProductRepository;
  inventory: InventoryRepository;
  shippingMethods: ShippingMethodRepository;
  collections: CollectionRepository;
  locales: LocaleRepository;
  translations: TranslationRepository;
  /** Regions, region prices and currency rates (decisions §19). */
  regions: RegionRepository;
  /** Each product's representative price per region, for storefront lists (decisions §19). */
  regionProductPrices: RegionProductPriceRepository;
  categories: CategoryRepository;
  discounts: DiscountRepository;
  customers: CustomerRepository;
  carts: CartRepository;
  orders: OrderRepository;
  idempotency: IdempotencyRepository;
  events: EventRepository;
  webhooks: WebhookRepository;
  notifications: NotificationRepository;
  rateLimits: RateLimitRepository;
  returns: ReturnRepository;
  /** The dashboard's sums (decisions §23). */
  dashboard: DashboardRepository;
  /** API logs (decisions §23). */
  apiLogs: ApiLogRepository;
}

/**
 * The storage port (its contract, operation by operation: README.md in this folder). One use
 * case = one `transaction` call: the callback receives repositories bound to a single database
 * transaction, which commits when the callback resolves and rolls back when it throws. Never a
 * loose begin/commit pair.
 *
 * Core never asks which database it runs on: a storage says nothing about its engine here (an
 * adapter may describe itself on its own class), and a difference core must know of is an
 * explicit, optional member (as `storefront`).
 *
 * Concurrency contract (proven by the conformance suite on every adapter):
 * - SQLite: WAL, `busy_timeout`, and `BEGIN IMMEDIATE` for every transaction, so writers are
 *   serialised across connections and processes and a transaction never has to upgrade a read
 *   lock (no SQLITE_BUSY deadlocks mid-transaction).
 * - Postgres: READ COMMITTED; every invariant under concurrency is a conditional UPDATE whose
 *   WHERE is the guard (inventory levels as a compare-and-set on the values core planned from,
 *   discount usage, cart/order status compare-and-set), a counter
 *   row (order numbers), `FOR UPDATE` where a use case reads then writes one aggregate, and
 *   `FOR UPDATE SKIP LOCKED` for work queues (events, webhook deliveries).
 */
export interface Storage {
  /** Brings the schema up to date (Kysely migrator). Safe to call from several processes. */
  migrate(): Promise<void>;
  /** A read-write transaction. */
  transaction<T>(fn: (tx: Repositories) => Promise<T>): Promise<T>;
  /** Reads outside a transaction (each query sees committed data). */
  read<T>(fn: (repos: Repositories) => Promise<T>): Promise<T>;
  /**
   * Optional: the storefront catalog's responses as finished text, kept however the storage
   * likes (storefront-read-model.ts states the contract). Without it core serves them from
   * `products.list` / `get`.
   */
  readonly storefront?: StorefrontReadModel;
  /**
   * Optional: runs `fn` with `check` owed before anything of it takes effect or is answered.
   * The first `transaction` or `read` that `fn` starts (at any depth) sends `check` first on
   * its own connection, pipelined with its statements (no round trip of its own where the
   * engine pipelines); every transaction started inside `fn` commits only once `check`
   * resolved, and every read returns only then; a rejected `check` rolls them back and its
   * error is what they (and `checked`) reject with, whatever else failed. When `fn` started
   * neither, `check` runs at its end. `check` runs once.
   *
   * The provisional API key of a request (core's `AuthService.provisional`) is confirmed so: a
   * key revoked before the request started is refused by its first statement.
   */
  checked?<T>(check: (repos: Repositories) => Promise<void>, fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
