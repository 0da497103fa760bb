import type { Engine } from '@cartwright/core';
import { createApiHandler } from '@cartwright/http';
import { createExpressMiddleware } from '@cartwright/http/express';
import express, { type Express } from 'express';

/**
 * An Express 5 app with Cartwright's `/v1` API mounted next to the app's own routes.
 *
 * `createExpressMiddleware(handler)` serves `/v1/...` (and the route aliases) and passes everything else on
 * with `next()`. It is mounted before `express.json()` so that API bodies are read by the API
 * itself: its 1 MiB limit and its own `invalid_json` / 413 / 415 errors.
 */
export function createApp(engine: Engine): Express {
  const app = express();
  app.use(createExpressMiddleware(createApiHandler(engine)));

  // The app's own routes, with Express's own body parser.
  app.use(express.json());
  app.get('/health', (_req, res) => {
    res.json({ ok: true });
  });
  app.post('/echo', (req, res) => {
    res.json({ received: req.body });
  });
  return app;
}
