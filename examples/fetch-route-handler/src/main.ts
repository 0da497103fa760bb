import { createServer } from 'node:http';
import * as route from './app/v1/[...path]/route';
import { routeModuleListener } from './serve-route-module';
import { getShopEngine, PUBLISHABLE_KEY, SECRET_KEY } from './shop';

// Without Next.js: serve the route module on node:http. Inside a Next.js app, the file
// src/app/v1/[...path]/route.ts is all you need.
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '127.0.0.1';

const engine = await getShopEngine();
const server = createServer(routeModuleListener(route)).listen(port, host, () => {
  console.log(`listening on http://${host}:${port}`);
  console.log(`secret key: ${SECRET_KEY}\npublishable key: ${PUBLISHABLE_KEY}`);
});

process.once('SIGTERM', () => {
  server.close(() => void engine.close());
});
