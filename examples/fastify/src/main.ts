import { createApp } from './app';
import { createShopEngine, PUBLISHABLE_KEY, SECRET_KEY } from './shop';

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '127.0.0.1';

const engine = await createShopEngine({ filename: process.env.DATABASE_URL ?? ':memory:' });
const app = await createApp(engine);
app.addHook('onClose', () => engine.close());
await app.listen({ port, host });
console.log(`listening on http://${host}:${port}`);
console.log(`secret key: ${SECRET_KEY}\npublishable key: ${PUBLISHABLE_KEY}`);

process.once('SIGTERM', () => void app.close());
