/** The usage text of every command (`--help`). */
export const USAGE = {
  main: `Usage: cartwright <command> [options]

Commands:
  serve        Serve the /v1 API (the root \`pnpm start\`)
  migrate      Bring the database schema up to date
  keys create  Create an API key and print it
  members create  Invite a member of the back office and print the link that sets the password
  seed --demo  Load the demo catalog into an empty store
  worker       Deliver webhooks (several workers may share one database)
  reconcile    Settle checkout payments and refunds left open by a crash or a lost provider answer

Run \`cartwright <command> --help\` for a command's options, \`cartwright --version\` for the version.
Flags take their value as \`--flag value\` or \`--flag=value\`; an unknown flag is refused.
DATABASE_URL is postgres://… (PostgreSQL), mysql://… or mariadb://… (MariaDB), a SQLite file path
or :memory:; unset, every command uses the SQLite file .data/commerce.db in the project's root (the
nearest folder up holding pnpm-workspace.yaml, else a package.json), wherever it is typed.
Configuration comes from the environment: PORT, HOST, DATABASE_URL, DATABASE_POOL_SIZE,
COMMERCE_API_KEYS, COMMERCE_WEBHOOK_RETRY_DELAYS, COMMERCE_ALLOW_PRIVATE_WEBHOOKS, COMMERCE_SEED,
STRIPE_SECRET_KEY, STRIPE_API_BASE, STRIPE_WEBHOOK_SECRET, COMMERCE_RECONCILE_INTERVAL_MS, COMMERCE_RECONCILE_AFTER_MS,
COMMERCE_PAYMENT_TIMEOUT_MINUTES, COMMERCE_RATE_LIMITS, COMMERCE_RATE_LIMIT_<RULE>,
COMMERCE_CORS_ORIGINS, COMMERCE_CORS_ADMIN_ORIGINS, COMMERCE_TRUST_PROXY,
COMMERCE_PASSWORD_HASH_CONCURRENCY, COMMERCE_API_LOGS, LOG_LEVEL (see docs/getting-started.md and docs/limits.md).`,
  reconcile: `Usage: cartwright reconcile [--older-than-ms N] [--limit N]

Finds checkout payment attempts that never became an order (the process died after the provider
took the money, or its answer was lost) and pending 3-D Secure payments whose webhook never came,
asks the provider, and completes the order or refunds/voids the payment. Safe to run at any time
and from cron; attempts younger than --older-than-ms (default 600000, 10 min) are left alone, and
one run checks at most --limit payments (a whole number ≥ 1, default 500).
Prints one JSON line per payment and a summary.`,
  serve: `Usage: cartwright serve [--no-worker] [--no-reconcile]

Migrates the database, creates the store on first start, registers COMMERCE_API_KEYS (or, on a
first start without them, generates and prints one sk_test_ and one pk_test_ key), and serves the
/v1 API on HOST:PORT (default 127.0.0.1:3000). Prints "listening on http://HOST:PORT" once it
accepts requests and one JSON log line per request. SIGTERM/SIGINT drain in-flight requests and
exit 0. Webhooks are delivered in-process unless --no-worker is given (then run \`cartwright worker\`).
Checkout payments and refunds left open by a crash are reconciled every
COMMERCE_RECONCILE_INTERVAL_MS (default 30000; 0 = off) once older than COMMERCE_RECONCILE_AFTER_MS
(default 120000), unless --no-reconcile is given; the same runs cancel orders whose browser-confirmed
payment did not come within COMMERCE_PAYMENT_TIMEOUT_MINUTES (default 30).
Rate limits are on (COMMERCE_RATE_LIMITS=off turns them off, e.g. behind a gateway or for load
tests; COMMERCE_RATE_LIMIT_SECRET_KEY=10000/10s and the like change one rule); browsers may call the
storefront routes from any origin (COMMERCE_CORS_ORIGINS) and the admin routes from none
(COMMERCE_CORS_ADMIN_ORIGINS). Behind proxies, set COMMERCE_TRUST_PROXY to their number so
the per-address limits see the client's address (docs/limits.md).
API logs (GET /v1/admin/logs) record every non-GET request and every 4xx/5xx
(COMMERCE_API_LOGS=writes, the default; all: every request; off: none), bodies redacted and cut
at 8 KB, written within a second and kept 30 days (docs/back-office.md).`,
  worker: `Usage: cartwright worker [--interval-ms N] [--no-reconcile]

Delivers due webhooks from DATABASE_URL in a loop (default every 1000 ms when idle). Several
workers (and servers) can share one PostgreSQL or MariaDB: deliveries are claimed with leases, so no attempt is
sent twice. SIGTERM finishes or releases in-flight attempts and exits 0. Like serve, it also
reconciles open payments and refunds on a schedule unless --no-reconcile is given.`,
  migrate: `Usage: cartwright migrate

Brings the schema of DATABASE_URL up to date and exits.`,
  seed: `Usage: cartwright seed --demo

Loads a small demo catalog (products with options, variants, images and stock; two shipping
methods; an automatic and a code discount) into the test mode of the store of DATABASE_URL, if
it has no products yet. COMMERCE_SEED=demo does the same on \`serve\`.`,
  keys: `Usage: cartwright keys create [--type secret|publishable] [--mode test|live] [--name NAME]

Creates an API key for the store of DATABASE_URL and prints it (shown once; only its hash is kept).
Defaults: --type secret --mode test.`,
  members: `Usage: cartwright members create --email EMAIL [--role admin|member] [--user-id ID] [--base-url URL]

Invites a member of the organization of DATABASE_URL (default role: member; the first one should
be an admin) and prints a one-time link to the admin console that sets the member's password,
valid 7 days: <base url>/admin/#/accept-invite?token=… The base URL defaults to
http://localhost:PORT (docs/back-office.md).`,
};
