import { createServer } from 'node:http';
import { createNodeListener } from '../../src/adapters/node';
import type { CartwrightHandler } from '../../src/create-handler';
import { listen } from './listen';

/** A parsed response: status, headers and the JSON body. */
export interface TestResponse {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: test assertions read arbitrary JSON.
  json: any;
}

export interface Transport {
  name: string;
  request(path: string, init?: RequestInit): Promise<TestResponse>;
  close(): Promise<void>;
}

async function toTestResponse(response: Response): Promise<TestResponse> {
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** Calls the fetch handler in-process with real `Request` objects. */
export async function fetchTransport(handler: CartwrightHandler): Promise<Transport> {
  return {
    name: 'fetch handler',
    request: async (path, init) =>
      toTestResponse(await handler(new Request(`http://shop.test${path}`, init))),
    close: async () => undefined,
  };
}

/** Real HTTP over node:http with `createNodeListener` (the light path). */
export async function nodeTransport(handler: CartwrightHandler): Promise<Transport> {
  const server = await listen(createServer(createNodeListener(handler)));
  return {
    name: 'node:http',
    request: async (path, init) => toTestResponse(await fetch(server.url + path, init)),
    close: server.close,
  };
}

/** A body stream of `size` bytes in 64 KiB chunks, sent without Content-Length (chunked). */
export function streamOf(size: number, byte = 0x61): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= size) {
        controller.close();
        return;
      }
      const n = Math.min(64 * 1024, size - sent);
      controller.enqueue(new Uint8Array(n).fill(byte));
      sent += n;
    },
  });
}
