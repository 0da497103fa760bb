import { type CartwrightHandler, createApiHandler } from '@cartwright/http';
import { getShopEngine } from '../../../shop';

/**
 * A Next.js App Router route handler (`app/v1/[...path]/route.ts`) serving the whole `/v1` API.
 * The API's handler is a web-standard `(Request) => Promise<Response>` that routes by path
 * itself, so every method export is the same function.
 */

/** Next.js: run on Node (better-sqlite3 is a native module), and never cache API responses. */
export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

let api: Promise<CartwrightHandler> | undefined;

async function handler(request: Request): Promise<Response> {
  api ??= getShopEngine().then((engine) => createApiHandler(engine));
  return (await api)(request);
}

export const GET = handler,
  POST = handler,
  PATCH = handler,
  DELETE = handler;
