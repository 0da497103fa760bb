#!/usr/bin/env node
import { createRequire } from 'node:module';
import { CommerceError, type Engine } from '@cartwright/core';
import { choiceFlag, type Invocation, integerFlag, readInvocation } from './args';
import { ConfigError, readConfig, type ServerConfig } from './config';
import { seedDemo } from './demo-seed';
import { describeDatabase, openStorage } from './open-storage';
import {
  createConfiguredEngine,
  createLogger,
  logWebhookAttempt,
  startReconciler,
  startServer,
} from './server';
import { explainDatabaseError } from './startup-errors';
import { USAGE } from './usage';

type CommandOf<C extends string> = Extract<Invocation, { kind: 'command'; command: C }>;

/** Ends the process on SIGTERM/SIGINT after `stop` (exit 0; a second signal exits at once). */
function onShutdown(stop: (signal: string) => Promise<void>): void {
  let stopping = false;
  const handle = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(0);
    stopping = true;
    void stop(signal).then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error instanceof Error ? error.message : String(error));
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', handle);
  process.on('SIGINT', handle);
}

function seedLine(seed: 'loaded' | 'skipped' | null): string | null {
  if (seed === 'loaded') return 'COMMERCE_SEED=demo: demo catalog loaded into test mode';
  if (seed === 'skipped') return 'COMMERCE_SEED=demo: the store already has products; nothing loaded';
  return null;
}

async function serve(config: ServerConfig, { values }: CommandOf<'serve'>): Promise<void> {
  const running = await startServer(config, {
    deliverWebhooks: values['no-worker'] !== true,
    reconcile: values['no-reconcile'] !== true,
  });
  // Before the lines that say it runs: a SIGTERM sent on seeing them must drain, not kill.
  onShutdown(async (signal) => {
    console.log(`${signal} received, draining…`);
    await running.close();
  });
  if (running.generatedKeys.length > 0) {
    console.log('Generated API keys for test mode (shown once; only their hashes are stored):');
    for (const key of running.generatedKeys) console.log(`  ${key}`);
  }
  console.log(`database: ${describeDatabase(config.databaseUrl)}`);
  const seeded = seedLine(running.seed);
  if (seeded !== null) console.log(seeded);
  console.log(`listening on ${running.url}`);
  console.log(`API reference: ${running.url}/v1/docs (OpenAPI: ${running.url}/v1/openapi.json)`);
  const firstAdmin = await firstAdminHint(running.engine);
  if (firstAdmin !== null) console.log(firstAdmin);
  console.log(`Admin console: ${running.url}/admin/`);
}

/** The line a start without any member prints: how to create the first admin (decisions §23). */
async function firstAdminHint(engine: Engine): Promise<string | null> {
  const members = await engine.forStore(await engine.scopeFor('live')).members.list({ limit: 1 });
  if (members.total_count > 0) return null;
  return (
    'No admin yet: run `cartwright members create --email you@example.com --role admin` ' +
    '(`pnpm cartwright …` in a checkout of Cartwright) for the link that sets the password'
  );
}

async function worker(config: ServerConfig, { values }: CommandOf<'worker'>): Promise<void> {
  const intervalMs = integerFlag('interval-ms', values['interval-ms'], 1000, 1);
  const logger = createLogger(config);
  const { engine } = await createConfiguredEngine(config, { skipKeys: true });
  const reconciler = values['no-reconcile'] === true ? null : startReconciler(engine, config, logger);
  const workerId = `worker-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const loop = engine.webhooks.startWorker({
    intervalMs,
    workerId,
    onError: (error) => logger.error({ err: error }, 'webhook delivery failed'),
    onAttempt: (attempt) => logWebhookAttempt(logger, attempt),
  });
  onShutdown(async (signal) => {
    logger.info({ signal }, 'finishing in-flight deliveries');
    await Promise.all([loop.stop(), reconciler?.stop()]);
    await engine.close();
  });
  logger.info(
    { worker_id: workerId, database: describeDatabase(config.databaseUrl) },
    'webhook worker running',
  );
}

async function reconcile(config: ServerConfig, { values }: CommandOf<'reconcile'>): Promise<void> {
  const olderThanMs = integerFlag('older-than-ms', values['older-than-ms'], 600_000, 0);
  const limit = integerFlag('limit', values.limit, 500, 1);
  const { engine } = await createConfiguredEngine(config, { skipKeys: true });
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

async function migrate(config: ServerConfig): Promise<void> {
  const storage = await openStorage(config.databaseUrl, { poolSize: config.databasePoolSize });
  try {
    await storage.migrate();
  } catch (error) {
    throw explainDatabaseError(error, config.databaseUrl);
  } finally {
    await storage.close();
  }
  console.log(`migrated ${describeDatabase(config.databaseUrl)}`);
}

async function keysCreate(config: ServerConfig, { values }: CommandOf<'keys create'>): Promise<void> {
  const type = choiceFlag('type', values.type, ['secret', 'publishable'] as const, 'secret');
  const mode = choiceFlag('mode', values.mode, ['test', 'live'] as const, 'test');
  const { engine } = await createConfiguredEngine(config, { skipKeys: true });
  try {
    const scope = await engine.scopeFor(mode);
    const key = engine.apiKeys.generateKey(type, mode);
    await engine.apiKeys.register(scope.store_id, key, values.name ?? null);
    console.log(key);
    console.error(`(${type} ${mode} key for ${describeDatabase(config.databaseUrl)}; shown once)`);
  } finally {
    await engine.close();
  }
}

async function membersCreate(config: ServerConfig, { values }: CommandOf<'members create'>): Promise<void> {
  if (values.email === undefined || values.email.trim() === '') {
    throw new ConfigError(`members create needs --email\n\n${USAGE.members}`);
  }
  const role = choiceFlag('role', values.role, ['admin', 'member'] as const, 'member');
  const base = (values['base-url'] ?? `http://localhost:${config.port}`).replace(/\/+$/, '');
  const { engine } = await createConfiguredEngine(config, { skipKeys: true });
  try {
    const { member, token, expires_at } = await engine.staff.invite(await engine.scopeFor('live'), {
      email: values.email,
      role,
      ...(values['user-id'] !== undefined && { user_id: values['user-id'] }),
    });
    console.log(`${base}/admin/#/accept-invite?token=${token}`);
    console.error(
      `(${member.role} ${member.email}, ${member.id}, invited in ${describeDatabase(config.databaseUrl)}: ` +
        `the link sets the password once, until ${expires_at})`,
    );
  } catch (error) {
    // A taken e-mail or user id, or a bad value: said plainly, exit 2.
    if (CommerceError.is(error) && error.type !== 'api_error')
      throw new ConfigError(`${error.code}${error.param ? ` (${error.param})` : ''}: ${error.message}`);
    throw error;
  } finally {
    await engine.close();
  }
}

async function seed(config: ServerConfig, { values }: CommandOf<'seed'>): Promise<void> {
  if (values.demo !== true) throw new ConfigError('seed needs --demo (the only data set there is)');
  const { engine } = await createConfiguredEngine({ ...config, seed: null }, { skipKeys: true });
  try {
    const loaded = await seedDemo(engine, await engine.scopeFor('test'));
    console.log(loaded ? 'demo catalog loaded' : 'the store already has products; nothing changed');
  } finally {
    await engine.close();
  }
}

function version(): string {
  const require = createRequire(import.meta.url);
  for (const path of ['../package.json', './package.json']) {
    try {
      return (require(path) as { version: string }).version;
    } catch {
      // dist/bin.js and src/bin.ts both sit one folder below package.json; keep looking otherwise.
    }
  }
  return 'unknown';
}

async function main(argv: string[]): Promise<void> {
  const invocation = readInvocation(argv);
  if (invocation.kind === 'help') return console.log(invocation.text);
  if (invocation.kind === 'version') return console.log(`cartwright ${version()}`);
  const config = readConfig();
  switch (invocation.command) {
    case 'serve':
      return serve(config, invocation);
    case 'worker':
      return worker(config, invocation);
    case 'reconcile':
      return reconcile(config, invocation);
    case 'migrate':
      return migrate(config);
    case 'seed':
      return seed(config, invocation);
    case 'keys create':
      return keysCreate(config, invocation);
    case 'members create':
      return membersCreate(config, invocation);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(`cartwright: ${error.message}`);
    process.exit(2);
  }
  console.error(error);
  process.exit(1);
});
