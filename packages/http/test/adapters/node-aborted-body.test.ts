import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { expect, test } from 'vitest';
import { readNodeStream } from '../../src/adapters/node';

test('a client that disconnects before its body is read (while auth is awaited) rejects at once, never hangs', async () => {
  let settled: Promise<string>;
  let gotRequest!: () => void;
  const requestSeen = new Promise<void>((resolve) => {
    gotRequest = resolve;
  });
  const server = createServer((req: IncomingMessage) => {
    settled = (async () => {
      gotRequest();
      // the pipeline authenticates before reading the body; the client leaves meanwhile
      await new Promise((resolve) => req.socket.once('close', resolve));
      await new Promise((resolve) => setTimeout(resolve, 20));
      return readNodeStream(req, 1024).then(
        () => 'resolved',
        (error: Error) => `rejected: ${error.message}`,
      );
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const socket = connect(port, '127.0.0.1');
  socket.write(
    'PATCH /v1/x HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":',
  );
  await requestSeen;
  socket.destroy();
  const outcome = await Promise.race([
    settled!,
    new Promise<string>((resolve) => setTimeout(() => resolve('hung'), 2000)),
  ]);
  server.close();
  expect(outcome).toMatch(/^rejected: The client closed the connection/);
});
