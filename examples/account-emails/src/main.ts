import { serve } from '@hono/node-server';
import { createApp } from './app';
import type { Mailer } from './mailer';
import { createShopEngine, PUBLISHABLE_KEY, SECRET_KEY } from './shop';

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? '127.0.0.1';
const resetPageUrl = process.env.RESET_PAGE_URL ?? 'http://localhost:5173/account/reset-password';

/** Prints each e-mail instead of sending it: replace with your mail service's client. */
const consoleMailer: Mailer = {
  async send(message) {
    console.log(`--- e-mail to ${message.to}: ${message.subject}\n${message.text}\n---`);
  },
};

const engine = await createShopEngine({ filename: process.env.DATABASE_URL ?? ':memory:' });
const app = createApp({ engine, mailer: consoleMailer, resetPageUrl });
const server = serve({ fetch: app.fetch, port, hostname }, (info) => {
  console.log(`listening on http://${hostname}:${info.port}`);
  console.log(`secret key: ${SECRET_KEY}\npublishable key: ${PUBLISHABLE_KEY}`);
});

process.once('SIGTERM', () => {
  server.close(() => void engine.close());
});
