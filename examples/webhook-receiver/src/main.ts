import { createWebhookReceiver } from './receiver';

const secret = process.env.WEBHOOK_SECRET;
if (!secret) {
  console.error('Set WEBHOOK_SECRET to the secret returned by POST /v1/admin/webhooks (whsec_…).');
  process.exit(1);
}
const port = Number(process.env.PORT ?? 4000);
const host = process.env.HOST ?? '127.0.0.1';

const server = createWebhookReceiver({
  secret,
  onEvent(event) {
    console.log(`${event.created_at} ${event.type} ${event.id}`, JSON.stringify(event.data).slice(0, 200));
  },
});
server.listen(port, host, () => console.log(`webhook receiver listening on http://${host}:${port}/webhooks`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
