import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A webhook endpoint on 127.0.0.1 that keeps the reset token of each `customer.password_reset_requested`. */
export interface ResetTokenReceiver {
  /** The endpoint's URL, for `POST /v1/admin/webhooks`. */
  readonly url: string;
  /** The latest reset token delivered for an e-mail. */
  readonly tokens: Map<string, string>;
  close(): Promise<void>;
}

/** Starts a {@link ResetTokenReceiver}: what a host's mailer would do with the event. */
export async function startResetTokenReceiver(): Promise<ResetTokenReceiver> {
  const tokens = new Map<string, string>();
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      const event = JSON.parse(body) as { type: string; data: { email: string; token: string } };
      if (event.type === 'customer.password_reset_requested') tokens.set(event.data.email, event.data.token);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mails`,
    tokens,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
