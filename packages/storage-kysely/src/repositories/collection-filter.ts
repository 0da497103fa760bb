import type { CollectionMembership } from '@cartwright/core/storage';
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { DialectCapabilities } from '../dialects/dialect-capabilities';
import { type Slots, slot, template } from '../query/template';
import { productDocumentSql } from '../storefront-read-model/catalog-documents';

/**
 * The product list's `collection` filter (decisions §17), compiled to SQL over `products`:
 * - a manual collection: `products.id` among its `collection_products` rows (0023); in its order,
 *   the product repository reads the members' positions (`memberRows`) and pages in memory;
 * - an automatic one: its rules as core compiled them (categories already expanded to their
 *   subtrees), each condition one predicate, joined by `and` (`match: all`) or `or` (`any`):
 *   `tag` — an element of `products.tags` is among the values; `type` / `product` —
 *   `products.type` / `products.id` among them; `category` — a `product_categories` row (0022)
 *   names one of them; `not_in` negates; `price` — `products.price` (the representative price,
 *   null never matches) `>=` / `<=` the value.
 * Each condition's values are ONE parameter (`caps.list`), so a statement's text depends only
 * on the rule's shape (match, and each condition's kind and operator), never on its values.
 * core's collections/rules.ts `matchesRules` is the reference these predicates must agree with
 * (property-tested through the engine in packages/testing).
 */

/** The statement shape of a collection filter. */
export type CollectionShape =
  /** `status`: the list's status test is made here (see `#inCollectionOrder`), not by the base. */
  | { type: 'manual'; status?: boolean }
  | { type: 'auto'; match: 'all' | 'any'; conditions: readonly string[] };

export function collectionShapeOf(membership: CollectionMembership | undefined): CollectionShape | null {
  if (membership === undefined) return null;
  if (membership.type === 'manual') return { type: 'manual' };
  return {
    type: 'auto',
    match: membership.rules.match,
    conditions: membership.rules.conditions.map((condition) => {
      if (condition.kind === 'price') return condition.op;
      const token = `${condition.negate ? '!' : ''}${condition.kind}`;
      // Tags: how many `instr` needles precede the exact test (SQLite; see `tagNeedles`).
      return condition.kind === 'tag' ? `${token}#${tagNeedles(condition.values).length}` : token;
    }),
  };
}

/** The shape's part of the list's filter key. */
export function collectionKey(shape: CollectionShape | null): string {
  if (shape === null) return '';
  if (shape.type === 'manual') return shape.status ? '|ms' : '|m';
  return `|a${shape.match}:${shape.conditions.join(',')}`;
}

/** Binds the filter's arguments: `collection_id`, or `rule<i>` per condition. */
export function collectionArgs(
  membership: CollectionMembership | undefined,
  caps: DialectCapabilities,
  args: Record<string, unknown>,
): void {
  if (membership === undefined) return;
  if (membership.type === 'manual') {
    args.collection_id = membership.id;
    return;
  }
  membership.rules.conditions.forEach((condition, i) => {
    args[`rule${i}`] = condition.kind === 'price' ? condition.value : caps.list(condition.values);
    if (condition.kind === 'tag') {
      tagNeedles(condition.values).forEach((needle, j) => {
        args[`rule${i}_needle${j}`] = needle;
      });
    }
  });
}

/** `products.tags`' elements as a table with a `value` column. */
function tagElements(caps: DialectCapabilities): RawBuilder<unknown> {
  switch (caps.dialect) {
    case 'postgres':
      return sql`jsonb_array_elements_text(products.tags) as t(value)`;
    case 'sqlite':
      return sql`json_each(products.tags) as t`;
    default:
      return sql`json_table(products.tags, '$[*]' columns (value varchar(255) path '$')) as t`;
  }
}

/** At most this many values get `instr` needles (bounds the statement shapes). */
const MAX_TAG_NEEDLES = 4;

/**
 * SQLite tag conditions: each value as the text it has in the stored `tags` JSON
 * (`JSON.stringify`, as the product repository writes it), so that `instr` rules a row out
 * before the exact `json_each` test, which alone reads every row's array (~20 ms per 10,000
 * products, product-counts.ts); the exact test still decides. None beyond
 * {@link MAX_TAG_NEEDLES} values.
 */
function tagNeedles(values: readonly string[]): string[] {
  return values.length <= MAX_TAG_NEEDLES ? values.map((value) => JSON.stringify(value)) : [];
}

function conditionSql(caps: DialectCapabilities, at: number, token: string, p: object): RawBuilder<SqlBool> {
  const value = slot(p, `rule${at}`);
  if (token === 'gte' || token === 'lte') {
    return sql<SqlBool>`(products.price is not null and products.price ${sql.raw(token === 'gte' ? '>=' : '<=')} ${value})`;
  }
  const negate = token.startsWith('!');
  const [kind, needles] = (negate ? token.slice(1) : token).split('#') as [string, string | undefined];
  let test: RawBuilder<SqlBool>;
  switch (kind) {
    case 'tag': {
      test = sql<SqlBool>`exists (select 1 from ${tagElements(caps)} where ${caps.inList(sql.ref('t.value'), value)})`;
      const count = Number(needles ?? 0);
      if (caps.dialect === 'sqlite' && count > 0) {
        const any = Array.from(
          { length: count },
          (_, j) => sql`instr(products.tags, ${slot(p, `rule${at}_needle${j}`)}) > 0`,
        );
        test = sql<SqlBool>`(${sql.join(any, sql.raw(' or '))}) and ${test}`;
      }
      break;
    }
    case 'type':
      test = caps.inList(sql.ref('products.type'), value);
      break;
    case 'product':
      test = caps.inList(sql.ref('products.id'), value);
      break;
    default:
      test = sql<SqlBool>`exists (select 1 from product_categories pc where pc.store_id = products.store_id and pc.mode = products.mode and pc.product_id = products.id and ${caps.inList(sql.ref('pc.category_id'), value)})`;
  }
  return negate ? sql<SqlBool>`not (${test})` : sql<SqlBool>`(${test})`;
}

/** The filter's predicate over `products`. */
export function collectionWhere(
  caps: DialectCapabilities,
  p: object,
  shape: CollectionShape,
): RawBuilder<SqlBool> {
  if (shape.type === 'manual') {
    const members = sql<SqlBool>`products.id in (select cp.product_id from collection_products cp where cp.store_id = ${slot(p, 'store_id')} and cp.mode = ${slot(p, 'mode')} and cp.collection_id = ${slot(p, 'collection_id')})`;
    if (!shape.status) return members;
    // SQLite: `+status` keeps the planner off the status indexes (without statistics it would
    // scan every live product of the status rather than look the members up by primary key).
    const status = sql.raw(caps.dialect === 'sqlite' ? '+products.status' : 'products.status');
    return sql<SqlBool>`${members} and ${status} = ${slot(p, 'status')}`;
  }
  const parts = shape.conditions.map((token, i) => conditionSql(caps, i, token, p));
  return sql<SqlBool>`(${sql.join(parts, sql.raw(shape.match === 'all' ? ' and ' : ' or '))})`;
}

/** More than a manual collection can hold (250): one page reads every matching member. */
export const MAX_MEMBERS_READ = 1000;

/** A manual collection's members with their positions, in display order. */
export const memberRows = template(({ db }, p: Slots<'store_id' | 'mode' | 'id'>) =>
  db
    .selectFrom('collection_products')
    .select(['product_id', 'position'])
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('collection_id', '=', p.id)
    .orderBy('position'),
);

/** Live products by id, each as its whole aggregate document (catalog-documents.ts). */
export const documentsByIds = template(({ db, caps }, p: Slots<'store_id' | 'mode' | 'ids'>) =>
  db
    .selectFrom('products')
    .select(['products.id', sql<unknown>`${sql.raw(productDocumentSql(caps.dialect, 'products'))}`.as('doc')])
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where(caps.inList(sql.ref('id'), p.ids))
    .where('deleted_at', 'is', null),
);

/** A deleted product leaves every manual collection (decisions §17). */
export const leaveCollections = template(({ db }, p: Slots<'store_id' | 'mode' | 'id'>) =>
  db
    .deleteFrom('collection_products')
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('product_id', '=', p.id),
);
