#!/usr/bin/env node
import { ConfigError, readConfig } from './config';
import { seedDemo } from './demo-seed';
import { describeDatabase, openStorage } from './open-storage';
import { createConfiguredEngine, startReconciler, startServer } from './server';

const HELP: Record<string, string> = {
  main: `Usage: cartwright <command> [options]

Commands:
  serve        Serve the /v1 API (the root \`pnpm start\`)
  migrate      Bring the database schema up to date
  keys create  Create an API key and print it
  seed --demo  Load the demo catalog into an empty store
  worker       Deliver webhooks (several workers may share one database)
  reconcile    Settle checkout payments and refunds left open by a crash or a lost provider answer

Run \`cartwright <command> --help\` for a command's options.
Configuration comes from the environment: PORT, HOST, DATABASE_URL, COMMERCE_API_KEYS,
COMMERCE_WEBHOOK_RETRY_DELAYS, COMMERCE_ALLOW_PRIVATE_WEBHOOKS, COMMERCE_SEED, STRIPE_SECRET_KEY,
STRIPE_API_BASE, STRIPE_WEBHOOK_SECRET, COMMERCE_RECONCILE_INTERVAL_MS, COMMERCE_RECONCILE_AFTER_MS
(see docs/getting-started.md).`,
  reconcile: `Usage: cartwright reconcile [--older-than-ms N] [--limit N]

Finds checkout payment attempts that never became an order (the process died after the provider
took the money, or its answer was lost) and pending 3-D Secure payments whose webhook never came,
asks the provider, and completes the order or refunds/voids the payment. Safe to run at any time
and from cron; attempts younger than --older-than-ms (default 600000, 10 min) are left alone.
Prints one JSON line per payment and a summary.`,
  serve: `Usage: cartwright serve [--no-worker] [--no-reconcile]

Migrates the database, creates the store on first start, registers COMMERCE_API_KEYS (or, on a
first start without them, generates and prints one sk_test_ and one pk_test_ key), and serves the
/v1 API on HOST:PORT (default 127.0.0.1:3000). Prints "listening on http://HOST:PORT" once it
accepts requests and one JSON log line per request. SIGTERM/SIGINT drain in-flight requests and
exit 0. Webhooks are delivered in-process unless --no-worker is given (then run \`cartwright worker\`).
Checkout payments and refunds left open by a crash are reconciled every
COMMERCE_RECONCILE_INTERVAL_MS (default 30000; 0 = off) once older than COMMERCE_RECONCILE_AFTER_MS
(default 120000), unless --no-reconcile is given.`,
  worker: `Usage: cartwright worker [--interval-ms N] [--no-reconcile]

Delivers due webhooks from DATABASE_URL in a loop (default every 1000 ms when idle). Several
workers (and servers) can share one PostgreSQL: deliveries are claimed with leases, so no attempt is
sent twice. SIGTERM finishes or releases in-flight attempts and exits 0. Like serve, it also
reconciles open payments and refunds on a schedule unless --no-reconcile is given.`,
  migrate: `Usage: cartwright migrate

Brings the schema of DATABASE_URL (default ./.data/commerce.db) up to date and exits.`,
  seed: `Usage: cartwright seed --demo

Loads a small demo catalog (products with options, variants, images and stock; two shipping
methods; an automatic and a code discount) into the test mode of the store of DATABASE_URL, if
it has no products yet. COMMERCE_SEED=demo does the same on \`serve\`.`,
  keys: `Usage: cartwright keys create [--type secret|publishable] [--mode test|live] [--name NAME]

Creates an API key for the store of DATABASE_URL and prints it (shown once; only its hash is kept).
Defaults: --type secret --mode test.`,
};

function flag(args: string[], name: string): string | undefined {
  const index = args.indexOf(`--${name}`);
  if (index === -1) return undefined;
  return args[index + 1];
}

async function serve(args: string[]): Promise<void> {
  const config = readConfig();
  const running = await startServer(config, {
    deliverWebhooks: !args.includes('--no-worker'),
    reconcile: !args.includes('--no-reconcile'),
  });
  if (running.generatedKeys.length > 0) {
    console.log('Generated API keys for test mode (shown once; only their hashes are stored):');
    for (const key of running.generatedKeys) console.log(`  ${key}`);
  }
  console.log(`database: ${describeDatabase(config.databaseUrl)}`);
  console.log(`listening on ${running.url}`);
  const stop = async (signal: string) => {
    console.log(`${signal} received, draining…`);
    await running.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

async function worker(args: string[]): Promise<void> {
  const intervalMs = Number(flag(args, 'interval-ms') ?? 1000);
  if (!Number.isFinite(intervalMs) || intervalMs <= 0)
    throw new ConfigError('--interval-ms must be a positive number');
  const config = readConfig();
  const { engine } = await createConfiguredEngine(config, { skipKeys: true });
  const reconciler = args.includes('--no-reconcile')
    ? null
    : startReconciler(
        engine,
        config,
        (entry) => console.log(JSON.stringify({ level: 'info', msg: 'reconciled', ...entry })),
        (error) =>
          console.error(JSON.stringify({ level: 'error', msg: 'reconciliation failed', err: String(error) })),
      );
  const loop = engine.webhooks.startWorker({
    intervalMs,
    onError: (error) =>
      console.error(JSON.stringify({ level: 'error', msg: 'webhook delivery failed', err: String(error) })),
  });
  console.log(`webhook worker ${loop.workerId ?? ''} running`);
  const stop = async (signal: string) => {
    console.log(`${signal} received, finishing in-flight deliveries…`);
    await Promise.all([loop.stop(), reconciler?.stop()]);
    await engine.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

async function reconcile(args: string[]): Promise<void> {
  const olderThanMs = Number(flag(args, 'older-than-ms') ?? 600_000);
  const limit = Number(flag(args, 'limit') ?? 500);
  if (!Number.isFinite(olderThanMs) || olderThanMs < 0)
    throw new ConfigError('--older-than-ms must be a number ≥ 0');
  if (!Number.isInteger(limit) || limit < 1) throw new ConfigError('--limit must be a positive integer');
  const { engine } = await createConfiguredEngine(readConfig(), { skipKeys: true });
  try {
    const report = await engine.payments.reconcile({ olderThanMs, limit });
    for (const result of report.results) console.log(JSON.stringify(result));
    for (const result of report.refunds) console.log(JSON.stringify(result));
    console.log(
      `checked ${report.checked} payment(s), acted on ${report.results.length}; refunds acted on: ${report.refunds.length}`,
    );
  } finally {
    await engine.close();
  }
}

async function migrate(): Promise<void> {
  const config = readConfig();
  const storage = await openStorage(config.databaseUrl);
  await storage.migrate();
  await storage.close();
  console.log(`migrated ${describeDatabase(config.databaseUrl)}`);
}

async function keysCreate(args: string[]): Promise<void> {
  const type = flag(args, 'type') ?? 'secret';
  const mode = flag(args, 'mode') ?? 'test';
  if (type !== 'secret' && type !== 'publishable')
    throw new ConfigError('--type must be secret or publishable');
  if (mode !== 'test' && mode !== 'live') throw new ConfigError('--mode must be test or live');
  const { engine } = await createConfiguredEngine(readConfig(), { skipKeys: true });
  const scope = await engine.scopeFor(mode);
  const key = engine.apiKeys.generateKey(type, mode);
  await engine.apiKeys.register(scope.store_id, key, flag(args, 'name') ?? null);
  console.log(key);
  await engine.close();
}

async function seed(args: string[]): Promise<void> {
  if (!args.includes('--demo')) throw new ConfigError(HELP.seed);
  const { engine } = await createConfiguredEngine({ ...readConfig(), seed: null }, { skipKeys: true });
  const loaded = await seedDemo(engine, await engine.scopeFor('test'));
  console.log(loaded ? 'demo catalog loaded' : 'the store already has products; nothing changed');
  await engine.close();
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    console.log(HELP.main);
    return;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(HELP[command] ?? HELP.main);
    return;
  }
  switch (command) {
    case 'serve':
      return serve(rest);
    case 'worker':
      return worker(rest);
    case 'reconcile':
      return reconcile(rest);
    case 'migrate':
      return migrate();
    case 'seed':
      return seed(rest);
    case 'keys':
      if (rest[0] !== 'create')
        throw new ConfigError(`Unknown keys command '${rest[0] ?? ''}'. ${HELP.keys}`);
      return keysCreate(rest.slice(1));
    default:
      throw new ConfigError(`Unknown command '${command}'.\n\n${HELP.main}`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(2);
  }
  console.error(error);
  process.exit(1);
});
