import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createEngine,
  type Engine,
  type EngineOptions,
  type PollingLoop,
  type WebhookAttemptReport,
} from '@cartwright/core';
import type { PaymentProvider } from '@cartwright/core/providers';
import type { Storage } from '@cartwright/core/storage';
import { createAdminConsole, createApiHandler } from '@cartwright/http';
import {
  BODY_TIMEOUT_MS,
  createNodeCheckContinue,
  toRawRequest,
  writeNodeResponse,
} from '@cartwright/http/node';
import { createNodeWebhookTransport } from '@cartwright/webhooks';
import pino, { type Logger } from 'pino';
import { ConfigError, type ServerConfig } from './config';
import { seedDemo } from './demo-seed';
import { nodeCrypto } from './node-crypto';
import { openStorage } from './open-storage';
import { rootPage } from './root-page';
import { explainDatabaseError, explainListenError } from './startup-errors';

export interface RunningServer {
  engine: Engine;
  server: Server;
  /** `http://HOST:PORT` */
  url: string;
  /** Keys generated on this start (first start without COMMERCE_API_KEYS), else empty. */
  generatedKeys: string[];
  /** What `COMMERCE_SEED=demo` did (null when unset). */
  seed: ConfiguredEngine['seed'];
  /** Stop accepting, finish in-flight requests, close the engine. */
  close(): Promise<void>;
}

export interface StartServerOptions {
  /** Deliver webhooks in-process with a timer loop (default true; `worker` processes do it otherwise). */
  deliverWebhooks?: boolean;
  /**
   * Reconcile payments and refunds left open by a crash on a schedule (default true, every
   * `config.reconcileIntervalMs`; 0 there turns it off too).
   */
  reconcile?: boolean;
  logger?: Logger;
  /** Skip registering/generating keys (commands that only need the engine). */
  skipKeys?: boolean;
  payments?: PaymentProvider[];
  engine?: Partial<Omit<EngineOptions, 'storage'>>;
}

/**
 * Builds the engine for a configuration: storage from DATABASE_URL (migrated), the store, the
 * keys of COMMERCE_API_KEYS (idempotent) or, on a first start without them, one generated
 * `sk_test_` and one `pk_test_` key.
 */
export async function createConfiguredEngine(
  config: ServerConfig,
  options: StartServerOptions = {},
): Promise<ConfiguredEngine> {
  const storage = await openStorage(config.databaseUrl, { poolSize: config.databasePoolSize });
  try {
    return await configure(storage, config, options);
  } catch (error) {
    await storage.close().catch(() => undefined);
    throw explainDatabaseError(error, config.databaseUrl);
  }
}

/** What `createConfiguredEngine` built, and what it did on the way (for the start banner). */
export interface ConfiguredEngine {
  engine: Engine;
  /** Keys generated on this start (first start without COMMERCE_API_KEYS), else empty. */
  generatedKeys: string[];
  /** What `COMMERCE_SEED=demo` did: `loaded`, `skipped` (the store has products), or null when unset. */
  seed: 'loaded' | 'skipped' | null;
}

async function configure(
  storage: Storage,
  config: ServerConfig,
  options: StartServerOptions,
): Promise<ConfiguredEngine> {
  const payments = [...(options.payments ?? [])];
  if (config.stripeSecretKey && !payments.some((provider) => provider.name === 'stripe')) {
    // Loaded only when configured: the `stripe` client is the largest module the server could
    // load (~3 MiB of heap), and most stores start without it.
    const { stripeProvider } = await import('@cartwright/payments-stripe');
    payments.push(
      stripeProvider({
        secretKey: config.stripeSecretKey,
        ...(config.stripeApiBase && { apiBase: config.stripeApiBase }),
        // Enables `POST /v1/webhooks/stripe` (verified with it); without it that route answers 404.
        ...(config.stripeWebhookSecret && { webhookSecret: config.stripeWebhookSecret }),
      }),
    );
  }
  const engine = await createEngine({
    crypto: nodeCrypto,
    webhookTransport: createNodeWebhookTransport({ allowPrivate: config.allowPrivateWebhooks }),
    rateLimits: config.rateLimits,
    ...(config.passwordHashConcurrency !== undefined && {
      passwordHashConcurrency: config.passwordHashConcurrency,
    }),
    ...options.engine,
    storage,
    payments,
    config: {
      webhook_retry_delays: config.webhookRetryDelays,
      allow_private_webhooks: config.allowPrivateWebhooks,
      payment_timeout_ms: config.paymentTimeoutMinutes * 60_000,
      ...options.engine?.config,
    },
  });
  const scope = await engine.scopeFor('test');
  const seed = config.seed === 'demo' ? ((await seedDemo(engine, scope)) ? 'loaded' : 'skipped') : null;
  const generatedKeys: string[] = [];
  if (options.skipKeys) return { engine, generatedKeys, seed };
  if (config.apiKeys.length > 0) {
    for (const [index, key] of config.apiKeys.entries()) {
      try {
        await engine.apiKeys.register(scope.store_id, key);
      } catch (error) {
        await engine.close();
        if ((error as { code?: string }).code !== 'parameter_invalid') throw error;
        throw new ConfigError(
          `COMMERCE_API_KEYS: key ${index + 1} ('${key.slice(0, 8)}…') is not an API key: expected sk_test_…, pk_test_…, sk_live_… or pk_live_… followed by 8 to 200 letters, digits, _ or -`,
        );
      }
    }
  } else {
    const existing = await engine.forStore(scope).apiKeys.list({ limit: 1 });
    if (existing.total_count === 0) {
      for (const type of ['secret', 'publishable'] as const) {
        const key = engine.apiKeys.generateKey(type, 'test');
        await engine.apiKeys.register(scope.store_id, key, `generated ${type} key`);
        generatedKeys.push(key);
      }
    }
  }
  return { engine, generatedKeys, seed };
}

/**
 * Reconciliation on the configured schedule (none when `reconcileIntervalMs` is 0), logging one
 * line per payment or refund a run acted on and one per run that failed as a whole.
 */
export function startReconciler(engine: Engine, config: ServerConfig, logger: Logger): PollingLoop | null {
  if (config.reconcileIntervalMs === 0) return null;
  return engine.payments.startReconciler({
    intervalMs: config.reconcileIntervalMs,
    olderThanMs: config.reconcileAfterMs,
    onReport: (report) => {
      for (const result of report.results) logger.info(result, 'reconciled');
      for (const refund of report.refunds) logger.info(refund, 'reconciled');
    },
    onError: (error) => logger.error({ err: error }, 'reconciliation failed'),
  });
}

/** The process's logger: JSON lines on stdout at `LOG_LEVEL`, ISO timestamps. */
/**
 * One log line per webhook delivery attempt: `info` when delivered, `warn` when it failed (with
 * the error, when the next attempt is due, and whether it deactivated the webhook).
 */
export function logWebhookAttempt(logger: Logger, attempt: WebhookAttemptReport): void {
  const fields = {
    webhook_id: attempt.webhook_id,
    delivery_id: attempt.delivery_id,
    event_id: attempt.event_id,
    attempt: attempt.attempt,
    outcome: attempt.outcome,
    status_code: attempt.status_code,
    duration_ms: attempt.duration_ms,
    ...(attempt.error !== null && { error: attempt.error }),
    ...(attempt.next_attempt_at !== null && {
      next_attempt_at: new Date(attempt.next_attempt_at).toISOString(),
    }),
    ...(attempt.deactivated && { deactivated: true }),
  };
  if (attempt.outcome === 'succeeded') logger.info(fields, 'webhook delivered');
  else if (attempt.deactivated) logger.warn(fields, 'webhook attempt failed: webhook deactivated');
  else logger.warn(fields, `webhook attempt ${attempt.outcome}`);
}

export function createLogger(config: Pick<ServerConfig, 'logLevel'>): Logger {
  return pino({ base: null, level: config.logLevel, timestamp: pino.stdTimeFunctions.isoTime });
}

/**
 * The request path as logged: without its query string, which can carry personal data (the guest
 * order lookup's e-mail) or search terms.
 */
function pathOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const query = url.indexOf('?');
  return query === -1 ? url : `${url.slice(0, query)}?…`;
}

/** The `error.code` of an error response body (docs/contract.md#errors), for the log line. */
function errorCodeOf(body: string | Uint8Array | undefined): string | undefined {
  if (typeof body !== 'string' || body === '') return undefined;
  try {
    const code = (JSON.parse(body) as { error?: { code?: unknown } }).error?.code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

/** Starts the HTTP server; resolves once it accepts connections. */
export async function startServer(
  config: ServerConfig,
  options: StartServerOptions = {},
): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(config);
  const { engine, generatedKeys, seed } = await createConfiguredEngine(config, options);
  const worker =
    options.deliverWebhooks === false
      ? null
      : engine.webhooks.startWorker({
          onError: (error) => logger.error({ err: error }, 'webhook delivery failed'),
          onAttempt: (attempt) => logWebhookAttempt(logger, attempt),
        });
  const reconciler = options.reconcile === false ? null : startReconciler(engine, config, logger);
  const handler = createApiHandler(engine, {
    cors: { storefrontOrigins: config.corsOrigins, adminOrigins: config.corsAdminOrigins },
    trustProxy: config.trustProxy,
    apiLogs: config.apiLogs,
    onError: (error, info) => logger.error({ err: error, request_id: info.requestId }, 'unexpected error'),
  });
  // The admin console at /admin (decisions §23): static files; the app calls /v1 with a staff session.
  const adminConsole = createAdminConsole();
  // The node adapter's light path, plus one structured log line per request; `GET /` points to
  // the API reference (root-page.ts).
  // A request must arrive within 30 s (docs/contract.md#requests): the body reader answers 408
  // `request_timeout` at 30 s; Node's own timeout cuts what the API never reads (a stalled body
  // on a 404 or 401) shortly after. Timeouts are checked every 2 s.
  const serverOptions = {
    requestTimeout: BODY_TIMEOUT_MS + 5_000,
    headersTimeout: 20_000,
    connectionsCheckingInterval: 2_000,
  };
  const listener = async (req: IncomingMessage, res: ServerResponse) => {
    const started = process.hrtime.bigint();
    let requestId: string | undefined;
    let code: string | undefined;
    try {
      const raw = toRawRequest(req);
      const response =
        rootPage(req.method, req.url, req.headers.accept) ??
        (adminConsole.owns(raw.path) ? await adminConsole.handleRaw(raw) : await handler.handleRaw(raw));
      requestId = response.headers['Request-Id'];
      if (response.status >= 400) code = errorCodeOf(response.body);
      writeNodeResponse(res, response);
    } catch {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end();
    }
    if (!logger.isLevelEnabled('info')) return;
    logger.info({
      request_id: requestId,
      method: req.method,
      path: pathOf(req.url),
      status: res.statusCode,
      ...(code !== undefined && { code }),
      duration_ms: Number(process.hrtime.bigint() - started) / 1e6,
    });
  };
  const server = createServer(serverOptions, listener);
  // `Expect: 100-continue` over the body limit → 413 at once, never `100 Continue`.
  server.on('checkContinue', createNodeCheckContinue(handler, listener));
  server.keepAliveTimeout = 65_000;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => resolve());
    });
  } catch (error) {
    await Promise.all([worker?.stop(), reconciler?.stop()]);
    await engine.close();
    throw explainListenError(error, config.host, config.port);
  }
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;

  let closing: Promise<void> | null = null;
  return {
    engine,
    server,
    url,
    generatedKeys,
    seed,
    close() {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
          // In-flight requests finish; anything still open after 10 s is cut.
          setTimeout(() => server.closeAllConnections(), 10_000).unref();
        });
        await Promise.all([worker?.stop(), reconciler?.stop(), handler.close()]);
        await engine.close();
      })();
      return closing;
    },
  };
}
