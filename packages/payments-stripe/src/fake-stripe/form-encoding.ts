/**
 * A value decoded from Stripe's `application/x-www-form-urlencoded` bodies: every leaf is a
 * string (Stripe's wire has no types), nested with bracket notation.
 */
export type FormValue = string | FormValue[] | FormObject;
export interface FormObject {
  [key: string]: FormValue;
}

/**
 * Parses a form body (or query string) the way Stripe reads it: `metadata[order_id]=ord_1`
 * becomes `{ metadata: { order_id: 'ord_1' } }`, `payment_method_types[0]=card` and
 * `payment_method_types[]=card` become arrays. A bracket key whose keys are all indices
 * (`0`, `1`, …) is an array; anything else is an object. Later duplicates of a scalar win.
 *
 * A small piece of our own rather than `qs`: the package depends on nothing but `stripe`.
 */
export function parseForm(body: string): FormObject {
  const root: FormObject = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const path = splitKey(rawKey);
    if (path.length === 0) continue;
    assign(root, path, value);
  }
  return arraysFromIndexedObjects(root) as FormObject;
}

/** `a[b][0]` → `['a', 'b', '0']`; `a[]` → `['a', '']`. */
function splitKey(key: string): string[] {
  const open = key.indexOf('[');
  if (open <= 0) return key === '' ? [] : [key];
  const parts = [key.slice(0, open)];
  const rest = key.slice(open);
  const bracket = /\[([^\]]*)\]/g;
  for (let match = bracket.exec(rest); match !== null; match = bracket.exec(rest)) {
    parts.push(match[1] ?? '');
  }
  return parts;
}

function assign(target: FormObject, path: string[], value: string): void {
  let node: FormObject = target;
  for (let i = 0; i < path.length - 1; i++) {
    let segment = path[i]!;
    if (segment === '') segment = String(Object.keys(node).length);
    const next = node[segment];
    if (typeof next === 'object' && next !== null && !Array.isArray(next)) {
      node = next;
    } else {
      const created: FormObject = {};
      node[segment] = created;
      node = created;
    }
  }
  let last = path[path.length - 1]!;
  if (last === '') last = String(Object.keys(node).length);
  node[last] = value;
}

function arraysFromIndexedObjects(value: FormValue): FormValue {
  if (typeof value === 'string' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const converted: FormObject = {};
  for (const key of keys) converted[key] = arraysFromIndexedObjects(value[key]!);
  const indexed = keys.length > 0 && keys.every((key) => /^\d+$/.test(key));
  if (!indexed) return converted;
  return keys
    .map(Number)
    .sort((a, b) => a - b)
    .map((index) => converted[String(index)]!);
}

/** A stable text form of parsed params (sorted keys), to compare two requests' parameters. */
export function canonicalParams(params: FormValue): string {
  if (typeof params === 'string') return JSON.stringify(params);
  if (Array.isArray(params)) return `[${params.map(canonicalParams).join(',')}]`;
  const keys = Object.keys(params).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalParams(params[key]!)}`).join(',')}}`;
}
