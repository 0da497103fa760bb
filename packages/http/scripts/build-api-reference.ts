/**
 * Writes the static API reference from the route definitions:
 *
 * - `docs/openapi.json`: the OpenAPI 3.1 document that `GET /v1/openapi.json` serves (no prefix);
 * - `docs/api-reference.html`: the page that `GET /v1/docs` serves, rendered from that document.
 *
 * Run from the repository root with `pnpm docs:api`
 * (`node --conditions=@cartwright/source --import tsx packages/http/scripts/build-api-reference.ts`).
 * Both files are committed; re-run after changing a route. The JSON is written with two-space
 * indentation and then formatted by Biome (if available) so that `pnpm lint` stays clean.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderApiReferenceHtml } from '../src/api-reference-html';
import { buildOpenApiDocument } from '../src/openapi';
import { apiRoutes } from '../src/routes';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const docsDir = join(root, 'docs');
const jsonPath = join(docsDir, 'openapi.json');
const htmlPath = join(docsDir, 'api-reference.html');

// The served page is rendered from the parsed JSON text; round-trip the same way here.
const document = JSON.parse(JSON.stringify(buildOpenApiDocument(apiRoutes))) as object;

mkdirSync(docsDir, { recursive: true });
writeFileSync(jsonPath, `${JSON.stringify(document, null, 2)}\n`);
writeFileSync(htmlPath, renderApiReferenceHtml(document));

// The document as JSON.stringify writes it is over biome's default 1 MiB limit, which biome would skip.
const maxSize = '--files-max-size=10485760';
const biome = spawnSync('pnpm', ['exec', 'biome', 'format', '--write', maxSize, relative(root, jsonPath)], {
  cwd: root,
  stdio: 'ignore',
});
if (biome.status !== 0) console.warn('biome format failed or is missing; docs/openapi.json left as written');

const paths = Object.values((document as { paths?: Record<string, object> }).paths ?? {});
const operations = paths.reduce((n, item) => n + Object.keys(item).length, 0);
console.log(`wrote ${relative(root, jsonPath)} and ${relative(root, htmlPath)} (${operations} operations)`);
