/**
 * JSON Schema (as in an OpenAPI 3.1 document) → the rows of a readable field table, for the HTML
 * API reference. `$ref`s into `#/components/schemas` are resolved and expanded in place, so a
 * nested field reads as one path: `lines[].quantity`, `shipping_address.country`,
 * `price.amount`. Written by hand rather than with a renderer library: it walks only the JSON
 * Schema subset zod-to-openapi emits (`type` and type arrays, `properties`, `required`, `items`,
 * `additionalProperties`, `enum`/`const`, `allOf`/`anyOf`/`oneOf`, number/string/array bounds).
 */

/** A JSON object of the document. */
export type JsonObject = Record<string, unknown>;

/** One line of a field table. */
export interface FieldRow {
  /** Dotted path from the top of the schema: `lines[].quantity`; `[]` marks array items. */
  path: string;
  /** Nesting level, 0 for the top-level fields. */
  depth: number;
  /** Readable type: `string (date-time)`, `integer | null`, `array of OrderLine`, `Money`. */
  type: string;
  /** Whether the enclosing object lists the field in `required`. */
  required: boolean;
  /** Constraints and value sets, one phrase each: `one of: draft, pending`, `default: 20`, `≥ 1`. */
  notes: string[];
  /** The field's (or its referenced component's) description, as written (not escaped). */
  description?: string;
}

/** A schema reduced to what a reader needs: its type label, constraints and child fields. */
export interface SchemaSummary {
  type: string;
  notes: string[];
  description?: string;
  /** The `#/components/schemas` name when the schema was a `$ref`. */
  refName?: string;
  /** `false` when the object refuses fields it does not list (`additionalProperties: false`). */
  closed: boolean;
}

/** Beyond this depth nested fields are not expanded (a guard; real schemas stay far below it). */
const MAX_DEPTH = 8;
const REF_PREFIX = '#/components/schemas/';

/** Whether a value is a plain JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads schemas of one document, resolving `$ref`s against its components. */
export class SchemaReader {
  private readonly schemas: JsonObject;

  constructor(document: JsonObject) {
    const components = isJsonObject(document.components) ? document.components : {};
    this.schemas = isJsonObject(components.schemas) ? components.schemas : {};
  }

  /** Type label, constraints and description of a schema (after resolving and merging). */
  summarise(schema: unknown): SchemaSummary {
    const node = this.normalise(schema, []);
    return {
      type: node.label,
      notes: node.notes,
      ...(node.description === undefined ? {} : { description: node.description }),
      ...(node.refName === undefined ? {} : { refName: node.refName }),
      closed: node.closed,
    };
  }

  /**
   * The field rows under a schema: for an object its properties (each followed by its own nested
   * fields), for an array the fields of its items under `[]`; none for a scalar. Recursive
   * component references are shown once and not expanded again.
   */
  fields(schema: unknown): FieldRow[] {
    const rows: FieldRow[] = [];
    this.children(this.normalise(schema, []), '', 0, rows);
    return rows;
  }

  private children(node: Node, prefix: string, depth: number, rows: FieldRow[]): void {
    if (depth > MAX_DEPTH) return;
    for (const [name, child] of node.properties) {
      const path = prefix === '' ? name : `${prefix}.${name}`;
      rows.push({
        path,
        depth,
        type: child.node.label,
        required: child.required,
        notes: child.node.notes,
        ...(child.node.description === undefined ? {} : { description: child.node.description }),
      });
      this.children(child.node, path, depth + 1, rows);
    }
    if (node.items !== undefined) this.children(node.items, `${prefix}[]`, depth, rows);
    if (node.values !== undefined) this.children(node.values, `${prefix}.*`, depth, rows);
  }

  /** Resolves refs and combinators into one {@link Node}; `seen` holds the refs being expanded. */
  private normalise(schema: unknown, seen: readonly string[]): Node {
    if (!isJsonObject(schema)) return emptyNode('any');
    const ref = typeof schema.$ref === 'string' ? schema.$ref : undefined;
    if (ref !== undefined) {
      const name = ref.startsWith(REF_PREFIX) ? decodePointer(ref.slice(REF_PREFIX.length)) : ref;
      const target = this.schemas[name];
      if (seen.includes(name) || !isJsonObject(target)) {
        const node = emptyNode(name);
        node.refName = name;
        if (seen.includes(name)) node.notes.push(`recursive: see ${name} above`);
        return withOwnDescription(node, schema);
      }
      const node = this.normalise(target, [...seen, name]);
      node.refName = name;
      if (node.kind === 'object' || node.kind === 'array-of-object' || node.kind === 'union') {
        node.label = node.nullable ? `${name} | null` : name;
      }
      return withOwnDescription(node, schema);
    }

    const combined = this.combine(schema, seen);
    if (combined !== undefined) return withOwnDescription(combined, schema);

    const types = typeList(schema);
    // `nullable: true` is OpenAPI 3.0's spelling of a `null` type.
    const nullable = types.includes('null') || schema.nullable === true;
    const nonNull = types.filter((t) => t !== 'null');
    const node = emptyNode('any');
    node.nullable = nullable;
    node.notes.push(...constraintNotes(schema));
    if (typeof schema.description === 'string') node.description = schema.description;

    const isObject = nonNull.includes('object') || (nonNull.length === 0 && isJsonObject(schema.properties));
    const isArray = nonNull.includes('array') || (nonNull.length === 0 && schema.items !== undefined);
    if (isObject && nonNull.length <= 1) {
      node.kind = 'object';
      const required = Array.isArray(schema.required) ? schema.required : [];
      if (isJsonObject(schema.properties)) {
        for (const [name, child] of Object.entries(schema.properties)) {
          node.properties.push([
            name,
            { node: this.normalise(child, seen), required: required.includes(name) },
          ]);
        }
      }
      node.closed = schema.additionalProperties === false;
      const extra = schema.additionalProperties;
      if (isJsonObject(extra) && Object.keys(extra).length > 0 && node.properties.length === 0) {
        node.values = this.normalise(extra, seen);
        node.label = `map of ${node.values.label}`;
      } else node.label = 'object';
    } else if (isArray && nonNull.length <= 1) {
      const items = this.normalise(schema.items, seen);
      node.items = items;
      node.kind = items.properties.length > 0 ? 'array-of-object' : 'array';
      node.label = `array of ${items.label}`;
      // Items without fields get no rows of their own: their constraints go on the array's row.
      if (items.properties.length === 0) {
        node.notes.push(...items.notes.map((note) => (note.startsWith('recursive') ? note : `each ${note}`)));
      }
    } else if (nonNull.length > 0) {
      node.label = nonNull.map((t) => withFormat(t, schema)).join(' | ');
    } else if (schema.const !== undefined || Array.isArray(schema.enum)) {
      node.label = valueType(schema.const ?? (schema.enum as unknown[])[0]);
    }
    if (isNullSchema(schema)) node.label = 'null';
    else if (nullable) node.label = `${node.label} | null`;
    return node;
  }

  /**
   * `allOf` merges its parts (zod-to-openapi writes a nullable reference as
   * `allOf: [{ $ref }, { type: [object, null] }]`); `anyOf`/`oneOf` become a union whose object
   * variants' fields are listed together. Undefined when the schema has no combinator.
   */
  private combine(schema: JsonObject, seen: readonly string[]): Node | undefined {
    const all = Array.isArray(schema.allOf) ? schema.allOf : undefined;
    const any = Array.isArray(schema.anyOf)
      ? schema.anyOf
      : Array.isArray(schema.oneOf)
        ? schema.oneOf
        : undefined;
    if (all === undefined && any === undefined) return undefined;

    if (all !== undefined) {
      // `{ type: [object, null] }` next to a `$ref` only adds null.
      const nullOnly = (part: unknown) =>
        isJsonObject(part) &&
        Object.keys(part).every((key) => key === 'type') &&
        typeList(part).includes('null');
      const nullable = all.some(nullOnly);
      const parts = all.filter((part) => !nullOnly(part)).map((part) => this.normalise(part, seen));
      const node = parts.length === 1 ? (parts[0] as Node) : mergeObjects(parts);
      if (nullable && !node.nullable) {
        node.nullable = true;
        node.label = `${node.label} | null`;
      }
      node.notes.push(...constraintNotes(schema));
      return node;
    }

    const nullable = (any as unknown[]).some(isNullSchema);
    const rest = (any as unknown[])
      .filter((part) => !isNullSchema(part))
      .map((part) => this.normalise(part, seen));
    if (rest.length === 1) {
      const only = rest[0] as Node;
      if (nullable && !only.nullable) {
        only.nullable = true;
        only.label = `${only.label} | null`;
      }
      only.notes.push(...constraintNotes(schema));
      return only;
    }
    const objects = rest.filter((v) => v.properties.length > 0);
    const node = objects.length > 0 ? mergeObjects(objects) : emptyNode('any');
    node.kind = 'union';
    const labels = [...new Set(rest.map((v) => v.label))];
    node.label = [...labels, ...(nullable ? ['null'] : [])].join(' | ');
    node.nullable = nullable;
    node.notes = [...new Set(rest.flatMap((v) => (objects.includes(v) ? [] : v.notes)))];
    node.notes.push(...constraintNotes(schema));
    node.description = typeof schema.description === 'string' ? schema.description : undefined;
    return node;
  }
}

interface Node {
  kind: 'scalar' | 'object' | 'array' | 'array-of-object' | 'union';
  label: string;
  nullable: boolean;
  notes: string[];
  description: string | undefined;
  refName: string | undefined;
  closed: boolean;
  properties: Array<[string, { node: Node; required: boolean }]>;
  items: Node | undefined;
  values: Node | undefined;
}

function emptyNode(label: string): Node {
  return {
    kind: 'scalar',
    label,
    nullable: false,
    notes: [],
    description: undefined,
    refName: undefined,
    closed: false,
    properties: [],
    items: undefined,
    values: undefined,
  };
}

/** The fields of several object schemas as one object (first definition of a name wins). */
function mergeObjects(parts: Node[]): Node {
  const node = emptyNode('object');
  node.kind = 'object';
  const names = new Set<string>();
  for (const part of parts) {
    for (const entry of part.properties) {
      if (names.has(entry[0])) continue;
      names.add(entry[0]);
      node.properties.push(entry);
    }
    node.notes.push(...part.notes);
    node.description ??= part.description;
    node.closed ||= part.closed;
  }
  return node;
}

/** A description next to a `$ref` (or on a combinator) overrides the referenced one. */
function withOwnDescription(node: Node, schema: JsonObject): Node {
  if (typeof schema.description === 'string') node.description = schema.description;
  if (schema.deprecated === true && !node.notes.includes('deprecated')) node.notes.push('deprecated');
  return node;
}

/** `{ type: 'null' }`: a variant that only allows null. */
function isNullSchema(schema: unknown): boolean {
  if (!isJsonObject(schema)) return false;
  const types = typeList(schema);
  return types.length > 0 && types.every((t) => t === 'null');
}

function typeList(schema: JsonObject): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((t): t is string => typeof t === 'string');
  return [];
}

function withFormat(type: string, schema: JsonObject): string {
  return typeof schema.format === 'string' && type !== 'null' ? `${type} (${schema.format})` : type;
}

function valueType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** One readable phrase per constraint of a schema. */
export function constraintNotes(schema: JsonObject): string[] {
  const notes: string[] = [];
  if (schema.const !== undefined) notes.push(`always ${literal(schema.const)}`);
  if (Array.isArray(schema.enum)) notes.push(`one of: ${schema.enum.map(literal).join(', ')}`);
  if (typeof schema.minimum === 'number') notes.push(`≥ ${schema.minimum}`);
  if (typeof schema.exclusiveMinimum === 'number') notes.push(`> ${schema.exclusiveMinimum}`);
  if (typeof schema.maximum === 'number') notes.push(`≤ ${schema.maximum}`);
  if (typeof schema.exclusiveMaximum === 'number') notes.push(`< ${schema.exclusiveMaximum}`);
  if (typeof schema.minLength === 'number') notes.push(`length ≥ ${schema.minLength}`);
  if (typeof schema.maxLength === 'number') notes.push(`length ≤ ${schema.maxLength}`);
  if (typeof schema.minItems === 'number') notes.push(`at least ${schema.minItems} item(s)`);
  if (typeof schema.maxItems === 'number') notes.push(`at most ${schema.maxItems} item(s)`);
  if (typeof schema.pattern === 'string') notes.push(`pattern ${schema.pattern}`);
  if (schema.default !== undefined) notes.push(`default: ${literal(schema.default)}`);
  if (schema.deprecated === true) notes.push('deprecated');
  if (schema.readOnly === true) notes.push('read-only');
  return notes;
}

function literal(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A JSON Pointer segment (`~1` → `/`, `~0` → `~`), percent-decoded as in a URI fragment. */
function decodePointer(segment: string): string {
  let text = segment;
  try {
    text = decodeURIComponent(segment);
  } catch {
    // keep it as written
  }
  return text.replace(/~1/g, '/').replace(/~0/g, '~');
}
