import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got. */
export interface Receipt {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface Receiver {
  /** `http://127.0.0.1:PORT` */
  url: string;
  port: number;
  receipts: Receipt[];
  /** Changes how the next requests are answered. */
  respondWith(respond: Responder): void;
  close(): Promise<void>;
}

/** Status and optional headers/delay for one request. */
export type Responder = (receipt: Receipt) => {
  status: number;
  headers?: Record<string, string>;
  delayMs?: number;
};

/**
 * A real HTTP receiver on 127.0.0.1 (node:http) that records every request with its raw body and
 * answers as told (default 200).
 */
export async function startReceiver(respond: Responder = () => ({ status: 200 })): Promise<Receiver> {
  let responder = respond;
  const receipts: Receipt[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const receipt: Receipt = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      receipts.push(receipt);
      const answer = responder(receipt);
      const reply = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
        res.end('ok');
      };
      if (answer.delayMs) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          reply();
        }, answer.delayMs);
        timers.add(timer);
      } else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    receipts,
    respondWith(next) {
      responder = next;
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
