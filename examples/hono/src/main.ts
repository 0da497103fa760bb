import { serve } from '@hono/node-server';
import { createApp } from './app';
import { createShopEngine, PUBLISHABLE_KEY, SECRET_KEY } from './shop';

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? '127.0.0.1';

const engine = await createShopEngine({ filename: process.env.DATABASE_URL ?? ':memory:' });
const server = serve({ fetch: createApp(engine).fetch, port, hostname }, (info) => {
  console.log(`listening on http://${hostname}:${info.port}`);
  console.log(`secret key: ${SECRET_KEY}\npublishable key: ${PUBLISHABLE_KEY}`);
});

process.once('SIGTERM', () => {
  server.close(() => void engine.close());
});
