import { readFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Engine } from '@cartwright/core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createShopServer } from '../src/app';
import { createShopEngine } from '../src/shop';

let engine: Engine;
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  engine = await createShopEngine();
  server = createShopServer(engine);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await engine.close();
});

// docs/api-reference.md lists every endpoint; this keeps the list equal to what the API serves.
test('docs/api-reference.md lists exactly the endpoints of GET /v1/openapi.json (aliases aside)', async () => {
  const document = (await (await fetch(`${baseUrl}/v1/openapi.json`)).json()) as {
    paths: Record<string, Record<string, { deprecated?: boolean }>>;
  };
  const served = Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(([, operation]) => operation.deprecated !== true)
      .map(([method]) => `${method.toUpperCase()} ${path}`),
  );
  const markdown = await readFile(new URL('../../../docs/api-reference.md', import.meta.url), 'utf8');
  const listed = [...markdown.matchAll(/^\|\s*(GET|POST|PATCH|PUT|DELETE)\s*\|\s*`([^`]+)`\s*\|/gm)].map(
    ([, method, path]) => `${method} ${path}`,
  );
  expect(listed.length).toBeGreaterThan(80);
  expect([...listed].sort()).toEqual([...served].sort());
});
