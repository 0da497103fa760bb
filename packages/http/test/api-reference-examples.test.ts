import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument, toOpenApiPath } from '../src/openapi';
import type { AnyRoute } from '../src/route';
import { apiRoutes } from '../src/routes';

// The examples of the document and the reference page (issue 21) are generated from the
// document's JSON Schemas; the routes' zod schemas, which also hold the rules JSON Schema cannot
// say, must accept every one of them.

// biome-ignore lint/suspicious/noExplicitAny: walking a generated JSON document.
type Json = any;

const doc: Json = JSON.parse(JSON.stringify(buildOpenApiDocument(apiRoutes)));
const documented = apiRoutes.filter((route) => route.excludeFromOpenApi !== true);

function operationOf(route: AnyRoute): Json {
  return doc.paths[toOpenApiPath(route.path)][route.method.toLowerCase()];
}

const label = (route: AnyRoute) => `${route.method} ${route.path}`;

/** A zod error as `path: message` lines, for a readable failure. */
function problems(result: { success: boolean; error?: { issues: Json[] } }): string[] {
  return result.success
    ? []
    : (result.error?.issues ?? []).map((issue: Json) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('examples in the OpenAPI document', () => {
  it('every request body example passes the route body schema', () => {
    const failures: Record<string, string[]> = {};
    let checked = 0;
    for (const route of documented) {
      if (route.body === undefined) continue;
      const example = operationOf(route).requestBody?.content?.['application/json']?.example;
      if (example === undefined) {
        failures[label(route)] = ['no example'];
        continue;
      }
      checked++;
      const found = problems(route.body.safeParse(example));
      if (found.length > 0) failures[label(route)] = found;
    }
    expect(failures).toEqual({});
    expect(checked).toBeGreaterThan(40);
  });

  it('every success response example passes the route response schema', () => {
    const failures: Record<string, string[]> = {};
    let checked = 0;
    for (const route of documented) {
      const op = operationOf(route);
      const status = String(route.status ?? 200);
      const example = op.responses[status]?.content?.['application/json']?.example;
      if (example === undefined) {
        failures[label(route)] = ['no example'];
        continue;
      }
      checked++;
      const found = problems(route.response.safeParse(example));
      if (found.length > 0) failures[label(route)] = found;
    }
    expect(failures).toEqual({});
    expect(checked).toBe(documented.length);
  });

  it('every path parameter example passes the route params schema', () => {
    const failures: Record<string, string[]> = {};
    for (const route of documented) {
      const op = operationOf(route);
      const params = Object.fromEntries(
        (op.parameters ?? []).filter((p: Json) => p.in === 'path').map((p: Json) => [p.name, p.example]),
      );
      if (Object.keys(params).length === 0) continue;
      if (Object.values(params).some((v) => typeof v !== 'string')) failures[label(route)] = ['no example'];
      else if (route.params !== undefined) {
        const found = problems(route.params.safeParse(params));
        if (found.length > 0) failures[label(route)] = found;
      }
    }
    expect(failures).toEqual({});
  });
});
