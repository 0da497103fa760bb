import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { renderApiReferenceHtml } from '../src/api-reference-html';
import { buildOpenApiDocument } from '../src/openapi';
import { apiRoutes } from '../src/routes';

const docs = (name: string) => fileURLToPath(new URL(`../../../docs/${name}`, import.meta.url));

// The committed reference is what readers of the repository see; `pnpm docs:api` rewrites both
// files from the routes. These fail when a route changed and the docs were not rebuilt.
const document = JSON.parse(JSON.stringify(buildOpenApiDocument(apiRoutes))) as object;

test('docs/openapi.json is the document the routes generate (run `pnpm docs:api` after changing a route)', () => {
  expect(JSON.parse(readFileSync(docs('openapi.json'), 'utf8'))).toEqual(document);
});

test('docs/api-reference.html is the page rendered from that document', () => {
  expect(readFileSync(docs('api-reference.html'), 'utf8') === renderApiReferenceHtml(document)).toBe(true);
});
