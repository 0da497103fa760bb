import { API_REFERENCE_SCRIPT, API_REFERENCE_STYLE } from './api-reference-assets';
import {
  constraintNotes,
  type FieldRow,
  isJsonObject,
  type JsonObject,
  SchemaReader,
} from './api-reference-fields';
import { curlCommand } from './openapi-examples';

/**
 * The browsable API reference: one self-contained HTML page rendered from an OpenAPI 3.1
 * document (inline CSS and a small inline script; no CDN, no external request).
 *
 * Every operation appears, grouped by its first tag (in the document's `tags` order, then by
 * first appearance), with its method, path, summary and description, who may call it, its path
 * and query parameters, the request body and success response as nested field tables (`$ref`s
 * resolved into the component they name), its examples (a curl command, the request body and the
 * success response, from the document's `example`s — see ./openapi-examples.ts), and its error
 * statuses with their codes. Each
 * operation has an anchor `#<method>-<path>` (e.g. `#post-v1-admin-orders-id-refunds`). All
 * content is rendered here, server-side; the script only adds the search box that filters
 * operations. Every string from the document is HTML-escaped; descriptions keep only
 * `` `code` `` spans and blank-line paragraphs.
 *
 * Who may call an operation comes from its `security` and, for the key kind, from the
 * `x-cartwright-auth` extension (`secret`, `any`, `none`) that `buildOpenApiDocument` writes.
 */
export function renderApiReferenceHtml(document: object): string {
  const doc = document as JsonObject;
  const reader = new SchemaReader(doc);
  const info = isJsonObject(doc.info) ? doc.info : {};
  const title = text(info.title) ?? 'API reference';
  const version = text(info.version);
  const groups = groupByTag(doc, collectOperations(doc));
  const total = groups.reduce((n, g) => n + g.operations.length, 0);
  const examples = new ExampleTable();

  const body = [
    '<div class="layout">',
    renderNav(groups),
    '<main>',
    renderHeader(doc, title, version, total),
    renderAuthentication(doc),
    renderErrorBody(doc, reader),
    ...groups.map((group) => renderGroup(group, doc, reader, examples)),
    '</main>',
    '</div>',
  ].join('\n');

  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(title)}${version === undefined ? '' : ` ${esc(version)}`} — API reference</title>`,
    `<style>${API_REFERENCE_STYLE}</style>`,
    '</head>',
    '<body>',
    body,
    examples.render(),
    `<script>${API_REFERENCE_SCRIPT}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'trace'] as const;

interface Operation {
  /** Anchor id, unique in the page. */
  id: string;
  method: string;
  path: string;
  op: JsonObject;
  /** Parameters declared on the path item, shared by its operations. */
  shared: unknown[];
}

interface TagGroup {
  name: string;
  description: string | undefined;
  operations: Operation[];
}

function collectOperations(doc: JsonObject): Operation[] {
  const paths = isJsonObject(doc.paths) ? doc.paths : {};
  const used = new Set<string>();
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(paths)) {
    if (!isJsonObject(item)) continue;
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of METHODS) {
      const op = item[method];
      if (!isJsonObject(op)) continue;
      const base = slug(`${method} ${path}`);
      let id = base;
      for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
      used.add(id);
      operations.push({ id, method, path, op, shared });
    }
  }
  return operations;
}

function groupByTag(doc: JsonObject, operations: Operation[]): TagGroup[] {
  const groups = new Map<string, TagGroup>();
  const declared = Array.isArray(doc.tags) ? doc.tags.filter(isJsonObject) : [];
  for (const tag of declared) {
    const name = text(tag.name);
    if (name !== undefined) groups.set(name, { name, description: text(tag.description), operations: [] });
  }
  for (const operation of operations) {
    const tags = Array.isArray(operation.op.tags) ? operation.op.tags : [];
    const name = typeof tags[0] === 'string' ? tags[0] : 'Other';
    let group = groups.get(name);
    if (group === undefined) {
      group = { name, description: undefined, operations: [] };
      groups.set(name, group);
    }
    group.operations.push(operation);
  }
  return [...groups.values()].filter((g) => g.operations.length > 0);
}

function renderNav(groups: TagGroup[]): string {
  const parts = ['<nav aria-label="Operations">'];
  parts.push(
    '<input id="filter" type="search" placeholder="Filter operations (press /)" aria-label="Filter operations" hidden>',
    '<span id="filter-count" aria-live="polite"></span>',
  );
  for (const group of groups) {
    parts.push(`<div class="nav-group"><h2><a href="#${tagId(group.name)}">${esc(group.name)}</a></h2><ul>`);
    for (const { id, method, path } of group.operations) {
      parts.push(
        `<li><a href="#${id}" data-op="${id}"><span class="method ${method}">${method.toUpperCase()}</span> <code>${esc(path)}</code></a></li>`,
      );
    }
    parts.push('</ul></div>');
  }
  parts.push('</nav>');
  return parts.join('\n');
}

function renderHeader(doc: JsonObject, title: string, version: string | undefined, total: number): string {
  const info = isJsonObject(doc.info) ? doc.info : {};
  const servers = Array.isArray(doc.servers) ? doc.servers.filter(isJsonObject) : [];
  const base = servers.map((s) => text(s.url)).filter((url): url is string => url !== undefined);
  return [
    '<header>',
    `<h1>${esc(title)}</h1>`,
    `<div class="version">${version === undefined ? '' : `Version ${esc(version)} · `}OpenAPI ${esc(text(doc.openapi) ?? '')} · ${total} operations · <a href="openapi.json">openapi.json</a></div>`,
    markdown(text(info.description)),
    base.length > 0
      ? `<p>Paths are relative to the mount prefix: ${base.map((url) => `<code>${esc(url)}</code>`).join(', ')}.</p>`
      : '',
    '</header>',
  ].join('\n');
}

function renderAuthentication(doc: JsonObject): string {
  const components = isJsonObject(doc.components) ? doc.components : {};
  const schemes = isJsonObject(components.securitySchemes) ? components.securitySchemes : {};
  const rows = Object.entries(schemes)
    .filter((entry): entry is [string, JsonObject] => isJsonObject(entry[1]))
    .map(([name, scheme]) => {
      const how =
        scheme.type === 'http'
          ? `<code>Authorization: ${esc(capitalise(text(scheme.scheme) ?? ''))} …</code>`
          : scheme.type === 'apiKey'
            ? `<code>${esc(text(scheme.name) ?? '')}</code> ${esc(text(scheme.in) ?? '')}`
            : esc(text(scheme.type) ?? '');
      return `<tr><td><code>${esc(name)}</code></td><td>${how}</td><td>${inline(text(scheme.description) ?? '')}</td></tr>`;
    });
  if (rows.length === 0) return '';
  return [
    '<section id="authentication">',
    '<h2>Authentication</h2>',
    '<p>Each operation shows who may call it: <span class="badge secret">secret key</span> (secret keys only), ' +
      '<span class="badge publishable">publishable key</span> (a publishable or a secret key), ' +
      '<span class="badge customer">customer token</span> (also the signed-in customer’s token; ' +
      '“optional” when it is read if sent) or <span class="badge">no key</span>.</p>',
    '<table><thead><tr><th>Scheme</th><th>Sent as</th><th>Description</th></tr></thead><tbody>',
    ...rows,
    '</tbody></table>',
    '</section>',
  ].join('\n');
}

/** The shared error body, shown once: the schema of the first error response in the document. */
function renderErrorBody(doc: JsonObject, reader: SchemaReader): string {
  const paths = isJsonObject(doc.paths) ? doc.paths : {};
  for (const item of Object.values(paths)) {
    if (!isJsonObject(item)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!isJsonObject(op) || !isJsonObject(op.responses)) continue;
      for (const [status, response] of Object.entries(op.responses)) {
        if (!/^[45]/.test(status)) continue;
        const schema = firstSchema(resolveResponse(doc, response));
        if (schema === undefined) continue;
        const summary = reader.summarise(schema);
        return [
          '<section id="errors">',
          '<h2>Errors</h2>',
          `<p>Every error response has this body${summary.refName === undefined ? '' : ` (<code>${esc(summary.refName)}</code>)`}; each operation lists the statuses and codes it can return.</p>`,
          markdown(summary.description),
          fieldTable(reader.fields(schema), 'Always present'),
          '</section>',
        ].join('\n');
      }
    }
  }
  return '';
}

function renderGroup(group: TagGroup, doc: JsonObject, reader: SchemaReader, examples: ExampleTable): string {
  return [
    `<section class="tag-group" id="${tagId(group.name)}">`,
    `<h2>${esc(group.name)}</h2>`,
    markdown(group.description),
    ...group.operations.map((operation) => renderOperation(operation, group.name, doc, reader, examples)),
    '</section>',
  ].join('\n');
}

function renderOperation(
  operation: Operation,
  tag: string,
  doc: JsonObject,
  reader: SchemaReader,
  examples: ExampleTable,
): string {
  const { id, method, path, op } = operation;
  const summary = text(op.summary);
  const operationId = text(op.operationId);
  const auth = authOf(op, doc);
  const search = [method, path, summary ?? '', tag, operationId ?? '', auth.search].join(' ').toLowerCase();
  const parameters = [...operation.shared, ...(Array.isArray(op.parameters) ? op.parameters : [])]
    .map((p) => resolveComponent(doc, p, 'parameters'))
    .filter(isJsonObject);
  const responses = isJsonObject(op.responses) ? op.responses : {};

  const parts = [
    `<section class="op" id="${id}" data-search="${esc(search)}">`,
    `<h3><a class="anchor" href="#${id}" aria-label="Link to this operation">#</a> <span class="method ${method}">${method.toUpperCase()}</span> <code class="path">${esc(path)}</code> ${auth.badges}${op.deprecated === true ? ' <span class="badge deprecated">deprecated</span>' : ''}</h3>`,
    summary === undefined ? '' : `<p class="summary">${inline(summary)}</p>`,
    `<div class="desc">${markdown(text(op.description))}</div>`,
    '<dl class="meta">',
    `<dt>Auth</dt><dd>${esc(auth.text)}</dd>`,
    operationId === undefined ? '' : `<dt>Operation id</dt><dd><code>${esc(operationId)}</code></dd>`,
    '</dl>',
  ];
  for (const location of ['path', 'query', 'header'] as const) {
    const list = parameters.filter((p) => p.in === location);
    if (list.length > 0)
      parts.push(`<h4>${capitalise(location)} parameters</h4>`, parameterTable(list, reader));
  }
  parts.push(renderCurl(doc, operation), renderRequestBody(doc, op, reader));
  for (const [status, response] of Object.entries(responses)) {
    if (/^2/.test(status)) parts.push(renderSuccess(doc, status, response, reader, examples));
  }
  parts.push(renderErrors(doc, responses), '</section>');
  return parts.filter((part) => part !== '').join('\n');
}

function renderRequestBody(doc: JsonObject, op: JsonObject, reader: SchemaReader): string {
  const body = resolveComponent(doc, op.requestBody, 'requestBodies');
  if (!isJsonObject(body) || !isJsonObject(body.content)) return '';
  const parts: string[] = [];
  for (const [mediaType, media] of Object.entries(body.content)) {
    if (!isJsonObject(media)) continue;
    const summary = reader.summarise(media.schema);
    parts.push(
      `<h4>Request body</h4>`,
      `<p class="schema-line"><code>${esc(mediaType)}</code> · ${body.required === true ? 'required' : 'optional (an empty body counts as <code>{}</code>)'} · ${schemaName(summary)}${summary.closed ? ' · fields not listed here are refused' : ''}</p>`,
      markdown(text(body.description) ?? summary.description),
      fieldTable(reader.fields(media.schema)),
      exampleBlock('Example request body', media.example, true),
    );
  }
  return parts.join('\n');
}

/**
 * A media type's `example` as indented JSON in a `<pre>` inside `<details>` (open or closed); ''
 * when there is none. Only `&`, `<` and `>` are escaped: quotes are plain text there, and JSON has
 * many of them.
 */
function exampleBlock(label: string, example: unknown, open: boolean): string {
  if (example === undefined) return '';
  return `<details class="example"${open ? ' open' : ''}><summary>${esc(label)}</summary><pre><code>${escText(JSON.stringify(example, null, 2))}</code></pre></details>`;
}

/**
 * The response examples of the page, each distinct one once (many operations return the same
 * object), as one compact JSON array in a hidden `<pre id="examples">` (text, not a script: the
 * page keeps its single inline script). The page's script shows each
 * `<details data-example="N">` and fills its empty `<code>` with example N, indented, when it is
 * first opened; without the script they stay hidden. This keeps the page small: every response
 * example rendered in place, indented, would add about 115 KB (uncompressed) to the page.
 */
class ExampleTable {
  private readonly index = new Map<string, number>();

  indexOf(example: unknown): number {
    const json = JSON.stringify(example);
    let n = this.index.get(json);
    if (n === undefined) {
      n = this.index.size;
      this.index.set(json, n);
    }
    return n;
  }

  render(): string {
    if (this.index.size === 0) return '';
    return `<pre id="examples" hidden>${escText(`[${[...this.index.keys()].join(',')}]`)}</pre>`;
  }
}

/** The operation's curl command (from its examples), in a `<pre>`. */
function renderCurl(doc: JsonObject, operation: Operation): string {
  const command = curlCommand(doc, operation);
  return `<h4>Example</h4>\n<pre class="curl"><code>${escText(command)}</code></pre>`;
}

function renderSuccess(
  doc: JsonObject,
  status: string,
  response: unknown,
  reader: SchemaReader,
  examples: ExampleTable,
): string {
  const resolved = resolveComponent(doc, response, 'responses');
  const content = isJsonObject(resolved) && isJsonObject(resolved.content) ? resolved.content : {};
  const parts = [`<h4>Response <code>${esc(status)}</code></h4>`];
  const entries = Object.entries(content).filter((entry): entry is [string, JsonObject] =>
    isJsonObject(entry[1]),
  );
  if (entries.length === 0) parts.push('<p class="schema-line">No body.</p>');
  for (const [mediaType, media] of entries) {
    const summary = reader.summarise(media.schema);
    const rows = reader.fields(media.schema);
    parts.push(
      `<p class="schema-line"><code>${esc(mediaType)}</code> · ${schemaName(summary)}</p>`,
      markdown(summary.description),
    );
    if (rows.length > 0) {
      parts.push(
        `<details><summary>${rows.length} fields</summary>`,
        fieldTable(rows, 'Always present'),
        '</details>',
      );
    }
    if (media.example !== undefined) {
      parts.push(
        `<details class="example" data-example="${examples.indexOf(media.example)}" hidden><summary>Example response ${esc(status)}</summary><pre><code></code></pre></details>`,
      );
    }
  }
  return parts.join('\n');
}

/** Error statuses with their codes, read from descriptions written as `Error: code_a, code_b`. */
function renderErrors(doc: JsonObject, responses: JsonObject): string {
  const rows: string[] = [];
  for (const [status, response] of Object.entries(responses)) {
    if (!/^[45]/.test(status)) continue;
    const resolved = resolveComponent(doc, response, 'responses');
    const description = isJsonObject(resolved) ? (text(resolved.description) ?? '') : '';
    const codes = /^Error:\s*(.+)$/.exec(description)?.[1];
    const cell =
      codes === undefined
        ? inline(description)
        : codes
            .split(',')
            .map((code) => `<code>${esc(code.trim())}</code>`)
            .join(' ');
    rows.push(`<tr><td><code>${esc(status)}</code></td><td>${cell}</td></tr>`);
  }
  if (rows.length === 0) return '';
  return [
    '<h4>Errors</h4>',
    '<table class="errors"><thead><tr><th>Status</th><th>Codes</th></tr></thead><tbody>',
    ...rows,
    '</tbody></table>',
  ].join('\n');
}

function parameterTable(parameters: JsonObject[], reader: SchemaReader): string {
  const rows = parameters.map((p) => {
    const summary = reader.summarise(p.schema);
    const notes = [...summary.notes, ...constraintNotes(p)];
    const description = text(p.description) ?? summary.description;
    return `<tr><td><code>${esc(text(p.name) ?? '')}</code></td><td>${esc(summary.type)}</td><td class="req">${p.required === true ? 'yes' : 'no'}</td><td>${describe(description, notes)}</td></tr>`;
  });
  return [
    '<table class="params"><thead><tr><th>Name</th><th>Type</th><th>Required</th><th>Description</th></tr></thead><tbody>',
    ...rows,
    '</tbody></table>',
  ].join('\n');
}

/**
 * A field table. `requiredHeader` names what the third column means: `Required` for inputs,
 * `Always present` for response bodies (a field not listed as required may be absent).
 */
function fieldTable(rows: FieldRow[], requiredHeader = 'Required'): string {
  if (rows.length === 0) return '';
  return [
    `<table class="fields"><thead><tr><th>Field</th><th>Type</th><th>${requiredHeader}</th><th>Description</th></tr></thead><tbody>`,
    ...rows.map(
      (row) =>
        `<tr class="d${Math.min(row.depth, 8)}"><td><code>${esc(row.path)}</code></td><td>${esc(row.type)}</td><td class="req">${row.required ? 'yes' : 'no'}</td><td>${describe(row.description, row.notes)}</td></tr>`,
    ),
    '</tbody></table>',
  ].join('\n');
}

function describe(description: string | undefined, notes: string[]): string {
  const text = description === undefined ? '' : inline(description);
  return text + notes.map((note) => ` <span class="note">${esc(note)}</span>`).join('');
}

function schemaName(summary: { type: string; refName?: string }): string {
  return summary.refName === undefined || summary.type === summary.refName
    ? `<code>${esc(summary.type)}</code>`
    : `<code>${esc(summary.refName)}</code> (${esc(summary.type)})`;
}

interface AuthInfo {
  badges: string;
  text: string;
  search: string;
}

/** Who may call an operation, from its `security` (or the document's) and `x-cartwright-auth`. */
function authOf(op: JsonObject, doc: JsonObject): AuthInfo {
  const security = Array.isArray(op.security) ? op.security : Array.isArray(doc.security) ? doc.security : [];
  const requirements = security.filter(isJsonObject);
  const kind = text(op['x-cartwright-auth']);
  if (kind === 'none' || requirements.length === 0 || requirements.some((r) => Object.keys(r).length === 0)) {
    return {
      badges: '<span class="badge">no key</span>',
      text: 'None: no API key needed.',
      search: 'no key none',
    };
  }
  const tokenSchemes = customerTokenSchemes(doc);
  const withToken = requirements.filter((r) => Object.keys(r).some((name) => tokenSchemes.has(name)));
  const token =
    withToken.length === 0 ? 'none' : withToken.length === requirements.length ? 'required' : 'optional';

  const badges: string[] = [];
  let label: string;
  if (kind === 'secret') {
    badges.push('<span class="badge secret">secret key</span>');
    label = 'Secret API key (sk_…)';
  } else if (kind === 'any') {
    badges.push('<span class="badge publishable">publishable key</span>');
    label = 'Publishable or secret API key (pk_… or sk_…)';
  } else {
    badges.push('<span class="badge">API key</span>');
    label = `Security: ${requirements.map((r) => Object.keys(r).join(' + ')).join(' or ')}`;
  }
  if (token === 'required') {
    badges.push('<span class="badge customer">customer token</span>');
    label += ' and a customer token (X-Customer-Token, required).';
  } else if (token === 'optional') {
    badges.push('<span class="badge customer">customer token optional</span>');
    label += '; a customer token (X-Customer-Token) is read when sent.';
  } else label += '.';
  const search = `${kind === 'secret' ? 'secret key' : kind === 'any' ? 'publishable key' : 'api key'}${token === 'none' ? '' : ' customer token'}`;
  return { badges: badges.join(' '), text: label, search };
}

/** Names of security schemes that carry the customer token (`X-Customer-Token` header). */
function customerTokenSchemes(doc: JsonObject): Set<string> {
  const components = isJsonObject(doc.components) ? doc.components : {};
  const schemes = isJsonObject(components.securitySchemes) ? components.securitySchemes : {};
  const names = new Set<string>();
  for (const [name, scheme] of Object.entries(schemes)) {
    if (
      isJsonObject(scheme) &&
      scheme.type === 'apiKey' &&
      text(scheme.name)?.toLowerCase() === 'x-customer-token'
    ) {
      names.add(name);
    }
  }
  return names;
}

/** Follows a `$ref` to `#/components/<kind>/<name>` (one hop); anything else is returned as is. */
function resolveComponent(doc: JsonObject, value: unknown, kind: string): unknown {
  if (!isJsonObject(value) || typeof value.$ref !== 'string') return value;
  const prefix = `#/components/${kind}/`;
  if (!value.$ref.startsWith(prefix)) return value;
  const components = isJsonObject(doc.components) ? doc.components : {};
  const group = isJsonObject(components[kind]) ? components[kind] : {};
  return group[value.$ref.slice(prefix.length)] ?? value;
}

function resolveResponse(doc: JsonObject, response: unknown): unknown {
  return resolveComponent(doc, response, 'responses');
}

function firstSchema(response: unknown): unknown {
  if (!isJsonObject(response) || !isJsonObject(response.content)) return undefined;
  for (const media of Object.values(response.content)) {
    if (isJsonObject(media) && media.schema !== undefined) return media.schema;
  }
  return undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function tagId(name: string): string {
  return `tag-${slug(name)}`;
}

/** Lower-case letters, digits and `_`, other runs → `-`: `POST /v1/a/{id}` → `post-v1-a-id`. */
function slug(value: string): string {
  return value
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML content and double- or single-quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => ESCAPES[ch] as string);
}

const esc = escapeHtml;

/** Escaped text with `` `code` `` spans. */
/** Escapes text content (not attribute values): `&`, `<` and `>`. */
function escText(value: string): string {
  return value.replace(/[&<>]/g, (char) => ESCAPES[char] as string);
}

function inline(value: string): string {
  return esc(value).replace(/`([^`]+)`/g, '<code>$1</code>');
}

/** Escaped paragraphs (split on blank lines) with `` `code` `` spans; '' for no text. */
function markdown(value: string | undefined): string {
  if (value === undefined || value.trim() === '') return '';
  return value
    .split(/\n\s*\n/)
    .map((paragraph) => `<p>${inline(paragraph.trim())}</p>`)
    .join('\n');
}
