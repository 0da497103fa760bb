#!/usr/bin/env node
/*
 * Rewrites code comments that cite the external interface decisions ("decisions §12",
 * "(spec, decisions §8, §10–§13)", a bare "§4") into links to the contract that lives in the
 * repository, `docs/contract.md#<anchor>`, and drops the "issue N" references of comments, which
 * point at a tracker nobody reading the code can open.
 *
 *   node scripts/contract-refs.mjs                 dry run over packages/, bench/, examples/, tools/
 *   node scripts/contract-refs.mjs --write         apply the rewrites
 *   node scripts/contract-refs.mjs --all           dry run, printing every rewrite (not a sample)
 *   node scripts/contract-refs.mjs --self-check    the script's own tests, plus: every anchor it
 *                                                  can produce exists in docs/contract.md, every
 *                                                  link of that page resolves, and its error table
 *                                                  matches packages/http/src/status-map.ts
 *   node scripts/contract-refs.mjs <paths…>        only these files or folders
 *
 * Only comments change (`//`, `/* … *\/`, JSDoc), found with the TypeScript parser: strings,
 * template literals, regular expressions and code are never touched (test titles such as
 * `describe('cart (decisions §12)')` are strings and are reported, not rewritten). "§" after
 * "RFC nnnn" and numbered subsections ("§12.5.3") are not ours and are left alone.
 *
 * A section maps to one anchor or, where it split into several, to the anchor whose keywords
 * appear on the same comment line (then in the file's path, then on the line before; else the
 * section's default). The
 * table is in docs/contract.md ("Section map") too. Running it twice changes nothing the second
 * time.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const CONTRACT = 'docs/contract.md';
const DEFAULT_ROOTS = ['packages', 'bench', 'examples', 'tools'];
const EXTENSIONS = /\.(?:ts|tsx|mts|cts|js|mjs|cjs)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', 'coverage', '.data', '.git']);

// ---------------------------------------------------------------- the map

/**
 * Per decisions section: keyword rules tried in order against the comment line (`re`) or, when
 * no line rule matches, against the file path (`path`); then `fallback`.
 * @type {Record<number, { rules: { re?: RegExp, path?: RegExp, anchor: string }[], fallback: string }>}
 */
const SECTIONS = {
  1: { rules: [], fallback: 'running' },
  2: { rules: [], fallback: 'keys-and-modes' },
  3: {
    rules: [
      {
        re: /\bcarts?\b|ownership|probeable|probed|checking out|publishable key reaches/i,
        anchor: 'cart-ownership',
      },
      { re: /status unchanged|never appl|not applied|only the admin API changes/i, anchor: 'customers' },
      { path: /routes\/carts|cart-access|checkout-claim/, anchor: 'cart-ownership' },
    ],
    fallback: 'customer-tokens',
  },
  4: {
    rules: [
      {
        re: /\btable\b|every error code|status families|statuses (?:decisions|the contract)|codes .* does not list/i,
        anchor: 'error-codes',
      },
      {
        re: /empty body|missing body|body counts|counts as `\{\}`|parameter_unknown|takes no input|1 MiB|larger than|size limit/i,
        anchor: 'requests',
      },
    ],
    fallback: 'errors',
  },
  5: { rules: [], fallback: 'success-statuses' },
  6: {
    rules: [
      { re: /\b1001\b|order numbers?|gap-free/i, anchor: 'order-numbers' },
      { re: /prefix|\bids?\b|unguessable|time-sortable|entropy/i, anchor: 'ids' },
    ],
    fallback: 'money',
  },
  7: {
    rules: [
      { re: /representative|cheapest|sorts? last|`price` is/i, anchor: 'representative-price' },
      { re: /filter|low_stock|available ≤ safety_stock|safety stock|`q`|`tag`/i, anchor: 'list-filters' },
      { re: /as a whole|replaces?\b/i, anchor: 'requests' },
      { path: /thresholds|inventory/, anchor: 'list-filters' },
      { path: /sort-keys|product-repository|catalog-codecs/, anchor: 'representative-price' },
    ],
    fallback: 'lists',
  },
  8: {
    rules: [
      { re: /store settings|organization/i, anchor: 'store-settings' },
      { re: /api[- ]keys?|key_prefix|\brotated? key|a key may|\bkeys?\b.*\brotate/i, anchor: 'api-keys' },
      { re: /inventory|adjust|\bstock\b|on_hand/i, anchor: 'inventory' },
      { re: /shipping[- ]methods?|ShippingMethod/i, anchor: 'shipping-methods' },
      { re: /lookup/i, anchor: 'guest-order-lookup' },
      { re: /\/carts|\bcarts?\b|\bitems\b/i, anchor: 'carts' },
      { re: /fulfillments?\b/i, anchor: 'fulfillments' },
      { re: /payments?\b/i, anchor: 'payments' },
      { re: /discounts?\b/i, anchor: 'discounts' },
      { re: /customers?\b|address book/i, anchor: 'customers' },
      { re: /organization|store settings|\/store\b|StoreUpdate|\bstore\b/i, anchor: 'store-settings' },
      { re: /products?\b|variants?\b|images?\b|catalog/i, anchor: 'catalog' },
      { re: /\borders?\b/i, anchor: 'orders' },
      { re: /webhooks?\b|notifications?\b/i, anchor: 'webhooks' },
      { path: /api-key/, anchor: 'api-keys' },
      { path: /inventory/, anchor: 'inventory' },
      { path: /shipping/, anchor: 'shipping-methods' },
      { path: /customer/, anchor: 'customers' },
      { path: /store/, anchor: 'store-settings' },
      { path: /catalog|product|variant|image/, anchor: 'catalog' },
      { path: /cart/, anchor: 'carts' },
      { path: /order/, anchor: 'orders' },
    ],
    fallback: 'endpoints',
  },
  9: {
    rules: [
      {
        re: /shared by both modes|store settings|store and organization|\bstores?:/i,
        anchor: 'store-settings',
      },
      {
        re: /storefront|cost_price|hidden|inactive variants|only `active`|may show|sees only|`available`|on_hand/i,
        anchor: 'storefront-visibility',
      },
      { path: /store-(?:service|repository)|schemas\/store/, anchor: 'store-settings' },
    ],
    fallback: 'catalog',
  },
  10: {
    rules: [
      { re: /restock|refund/i, anchor: 'restock' },
      { re: /\bevents?\b|fires|threshold|inventory\.low|crossing/i, anchor: 'inventory-events' },
      { re: /\breserves?\b|reservations?\b|releas|cancel/i, anchor: 'reservations' },
      { path: /refund|restock/, anchor: 'restock' },
      { path: /thresholds|inventory-events/, anchor: 'inventory-events' },
      { path: /order-inventory|order-cancellation/, anchor: 'reservations' },
    ],
    fallback: 'inventory',
  },
  11: {
    rules: [
      {
        re: /shipping methods?|free_shipping_threshold|subtotal reaches|shipping price/i,
        anchor: 'shipping-price',
      },
      {
        re: /\bdiscounts?\b|allocat|largest remainder|per-customer|usage|eligib|conditions?\b|value_type|`fixed`/i,
        anchor: 'discounts',
      },
      { re: /\btax|round/i, anchor: 'tax' },
      { path: /discount/, anchor: 'discounts' },
      { path: /tax|rounding/, anchor: 'tax' },
      { path: /shipping/, anchor: 'shipping-price' },
    ],
    fallback: 'pricing',
  },
  12: {
    rules: [
      {
        re: /idempot|replay|another caller|caller part|its caller|scoped to|same body|hashes the same|crash safety|24 h\b|claim of a request/i,
        anchor: 'idempotency',
      },
      { re: /cart `?status\b/i, anchor: 'carts' },
      { re: /merge/i, anchor: 'cart-merge' },
      { re: /checkout attempt of a cart|open checkout attempt/i, anchor: 'cart-concurrency' },
      { re: /concurren|one after another|\blocks?\b|locked|at a time/i, anchor: 'cart-concurrency' },
      { re: /customer_id|publishable|ownership/i, anchor: 'cart-ownership' },
      { re: /checkout|payment_provider|providers?\b|payment_method|e-mail|\border\b/i, anchor: 'checkout' },
      { re: /cart `?status|cart_not_active|\bcarts?\b/i, anchor: 'carts' },
      { path: /idempotency|unit-of-work/, anchor: 'idempotency' },
      { path: /cart-merge/, anchor: 'cart-merge' },
      { path: /cart-locks|cart-concurrency|cart-write/, anchor: 'cart-concurrency' },
      { path: /checkout|payment|order/, anchor: 'checkout' },
    ],
    fallback: 'carts',
  },
  13: {
    rules: [
      { re: /fulfillment_status|deriveFulfillmentStatus|`returned`/i, anchor: 'fulfillment-status' },
      { re: /\b(?:it|order) completes\b|`order\.completed`/i, anchor: 'order-status' },
      { re: /payment_status|derivePaymentStatus|paid amount vs total/i, anchor: 'payment-status' },
      {
        re: /total_orders|total_spent|\btotals\b|paid − refunded|derived (?:on read )?from orders|non-draft/i,
        anchor: 'customer-totals',
      },
      { re: /\brefunds?\b|computeRefund|linePaidAmount|customer paid|refunds the money/i, anchor: 'refunds' },
      {
        re: /AdminOrderCreate|POST \/v1\/admin\/orders`|admin order creation|order creation/i,
        anchor: 'admin-orders',
      },
      { re: /payment record|payment `status`|\bpayments?\b/i, anchor: 'payments' },
      { re: /fulfillment record|fulfillment `status`|\bfulfillments?\b/i, anchor: 'fulfillments' },
      { path: /refund/, anchor: 'refunds' },
      { path: /order-(?:automation|transitions|actions)/, anchor: 'order-status' },
      { path: /payment-(?:status|transitions)/, anchor: 'payments' },
      { path: /fulfillment-transitions/, anchor: 'fulfillments' },
      { path: /customer/, anchor: 'customer-totals' },
    ],
    fallback: 'order-status',
  },
  14: {
    rules: [
      { re: /webhook's `events`|`\["\*"\]`/i, anchor: 'webhooks' },
      { re: /outbox/i, anchor: 'events' },
      {
        re: /deliver|retry|retries|\bsign|signature|transport|sender|dispatcher|attempt|notification/i,
        anchor: 'webhook-delivery',
      },
      { re: /\bevents?\b(?! types?\b)|outbox|payload|emit/i, anchor: 'events' },
      {
        path: /webhook-dispatcher|retry-schedule|transport|verify-webhook|delivery/,
        anchor: 'webhook-delivery',
      },
      { path: /event/, anchor: 'events' },
    ],
    fallback: 'webhooks',
  },
  15: {
    rules: [
      {
        re: /standard webhooks|whsec|secret|signing|webhook-signature|webhook-id/i,
        anchor: 'standard-webhooks',
      },
      {
        re: /created after|created from now on|eventsSince|subscri|receivesEvent|only events/i,
        anchor: 'webhook-subscriptions',
      },
      { re: /revok|rotating an api key|rotat\w* (?:a |the )?key|every process/i, anchor: 'key-revocation' },
      {
        re: /rate|\b429\b|RateLimit|Retry-After|client address|per-address|per-client-address|counted across processes|loopback address|load test/i,
        anchor: 'rate-limits',
      },
      {
        re: /CORS|origins?\b|browser|\bHEAD\b|nosniff|preflight|headers every response/i,
        anchor: 'browsers',
      },
      {
        re: /sizes?\b|metadata|limits?\b|\bNUL\b|surrogate|path id|cannot exist|not_found|\blines\b|storable|integer|amounts?\b|outgrow/i,
        anchor: 'input-limits',
      },
      { path: /rate-limit|client-address/, anchor: 'rate-limits' },
      { path: /cors|router/, anchor: 'browsers' },
      {
        path: /webhook-signing|webhook-service|webhook-dispatcher|webhooks-standard|secret-rotation/,
        anchor: 'standard-webhooks',
      },
      { path: /subscriptions/, anchor: 'webhook-subscriptions' },
      { path: /api-key|auth-service/, anchor: 'key-revocation' },
      { path: /limits|parse|common|validate|translate-db-error/, anchor: 'input-limits' },
    ],
    fallback: 'limits',
  },
  16: {
    rules: [
      {
        re: /per e-mail|sign-ins and reset|sign-in and reset(?:\)| requests)|sign-in or a password reset/i,
        anchor: 'sign-in',
      },
      {
        re: /register, sign-in|register, sign in|sign-up, sign-in|sign-up and sign-in/i,
        anchor: 'customer-accounts',
      },
      { re: /register|sign-up|sign up/i, anchor: 'sign-up' },
      {
        re: /reset|prt_|carry a secret|carries a secret|carry secrets|secret event/i,
        anchor: 'password-reset',
      },
      { re: /sign-in|sign in|login|invalid_credentials|per e-mail|e-mail address/i, anchor: 'sign-in' },
      { re: /password|hash|scrypt/i, anchor: 'passwords' },
      { path: /password-reset/, anchor: 'password-reset' },
      { path: /passwords/, anchor: 'passwords' },
      { path: /rate-limit/, anchor: 'sign-in' },
    ],
    fallback: 'customer-accounts',
  },
};

/**
 * Hand-written rewrites of comments whose wording does not survive a mechanical one (checked
 * before the generic rules; a `from` no longer found is reported, never an error).
 * @type {{ file: RegExp, from: string, to: string }[]}
 */
const OVERRIDES = [
  {
    file: /http\/src\/status-map\.ts$/,
    from: 'Decisions for codes §4 does not list:',
    to: 'Statuses for codes beyond the first list of docs/contract.md#error-codes:',
  },
  {
    file: /http\/src\/error-response\.ts$/,
    from: 'Builds the §4 error body for a code. `type` follows the status, as §4 says.',
    to: 'Builds the error body (docs/contract.md#errors) for a code. `type` follows the status.',
  },
  {
    file: /http\/src\/error-response\.ts$/,
    from: 'The error body of decisions §4, exactly.',
    to: 'The error body of docs/contract.md#errors, exactly.',
  },
  {
    file: /core\/src\/state\/fulfillment-status\.ts$/,
    from: 'Decision, literal to §13 (',
    to: 'Decision, literal to docs/contract.md#fulfillment-status (',
  },
  {
    file: /core\/src\/ports\/storage\/records\.ts$/,
    from: 'must not change (decisions §12).',
    to: 'must not change (docs/contract.md#cart-concurrency).',
  },
  {
    file: /http\/src\/routes\/orders\.ts$/,
    from: '(spec; decisions §5, §8, §10–§13)',
    to: '(docs/contract.md#checkout, #orders, #payments, #fulfillments, #refunds)',
  },
  {
    file: /http\/test\/openapi-limits\.test\.ts$/,
    from: '(issue 20, decisions §12 and §15)',
    to: '(docs/contract.md#idempotency, #rate-limits, #input-limits)',
  },
  {
    file: /core\/src\/services\/orders\/order-progress\.ts$/,
    from: 'from its parts (decisions §13):',
    to: 'from its parts (docs/contract.md#payment-status, #fulfillment-status):',
  },
  {
    file: /core\/src\/services\/orders\/order-progress\.ts$/,
    from: '(decisions §13): per line,',
    to: '(docs/contract.md#order-status): per line,',
  },
  {
    file: /http\/test\/api\/support\/stripe-fixtures\.ts$/,
    from: 'The money invariant of issue 6:',
    to: 'The money invariant of provider checkouts (docs/contract.md#checkout):',
  },
  {
    file: /core\/src\/services\/webhooks\/webhook-signing\.ts$/,
    from: 'Webhooks created before issue 20 have',
    to: 'Webhooks created before Standard Webhooks signatures were added have',
  },
  {
    file: /migrations\/0012_order_key_webhook_fixes\.ts$/,
    from: 'Order and webhook contract fixes of issue 19.',
    to: 'Order and webhook contract fixes.',
  },
  {
    file: /cli\/test\/node-flags\.test\.ts$/,
    from: '(issue 21: 5.9 s to listen through tsx)',
    to: '(5.9 s to listen through tsx)',
  },
  {
    file: /core\/src\/services\/wire\/storefront-product-text\.ts$/,
    from: '(issue 9: re-parsing',
    to: '(re-parsing',
  },
];

// ---------------------------------------------------------------- matching

const REF = String.raw`§\d+(?!\.\d)(?:\s*[–-]\s*§?\d+(?!\.\d))?`;
const REF_LIST = String.raw`${REF}(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+)${REF})*`;
// Optional "spec" prefix: `spec, `, `spec; `, `spec "Events", `.
const SPEC = String.raw`(?<spec>\bspec(?:\s+"[^"\n]+")?\s*[,;]\s*)?`;
// "decisions" before the refs, possibly at the end of the previous comment line.
const LEAD = String.raw`(?<lead>\b[Dd]ecisions(?<brk>[ \t]*\n[ \t]*(?:\*|\/\/)?[ \t]*)?[ \t]*)?`;
const TITLE = String.raw`(?<title>[ \t]+"[A-Z][^"\n]{0,40}")?`;
const CITATION = new RegExp(`(?<!RFC \\d+ )${SPEC}${LEAD}(?<refs>${REF_LIST})${TITLE}`, 'g');
// Any "§" citation, for finding the ones outside comments.
const ANY_SECTION = /(?<!RFC \d+ )§\d+(?!\.\d)/g;
const ISSUE = /\b[Ii]ssue \d+\b/g;
/** Marks where the space before a line-ending "decisions" goes. */
const TRIM = '\uE000';

/** The section numbers of a ref list: `§10–§13, §15` → [10, 11, 12, 13, 15]. */
export function sectionsOf(refs) {
  const out = [];
  for (const part of refs.matchAll(/§(\d+)(?:\s*[–-]\s*§?(\d+))?/g)) {
    const from = Number(part[1]);
    const to = part[2] === undefined ? from : Number(part[2]);
    for (let n = from; n <= to; n++) out.push(n);
  }
  return out;
}

/**
 * The anchor of section `n`: by the keywords of the comment line, else by the file path, else by
 * the keywords of the line before; else the section's default. Null when the section is unknown.
 */
export function anchorFor(n, line, path, previousLine = '') {
  const section = SECTIONS[n];
  if (!section) return null;
  for (const rule of section.rules) if (rule.re?.test(line)) return rule.anchor;
  for (const rule of section.rules) if (rule.path?.test(path)) return rule.anchor;
  for (const rule of section.rules) if (rule.re?.test(previousLine)) return rule.anchor;
  return section.fallback;
}

/** Every anchor the map can produce. */
export function allAnchors() {
  const set = new Set();
  for (const s of Object.values(SECTIONS)) {
    set.add(s.fallback);
    for (const r of s.rules) set.add(r.anchor);
  }
  for (const o of OVERRIDES) for (const m of o.to.matchAll(/docs\/contract\.md#([a-z0-9-]+)/g)) set.add(m[1]);
  return set;
}

function linkTo(anchors) {
  return anchors.map((a, i) => (i === 0 ? `${CONTRACT}#${a}` : `#${a}`)).join(', ');
}

/** The comment line around `index` of `text` (for keywords). */
function lineAround(text, index) {
  const start = text.lastIndexOf('\n', index - 1) + 1;
  const end = text.indexOf('\n', index);
  return text.slice(start, end === -1 ? text.length : end);
}

/**
 * Rewrites the citations of one comment. Returns the new text and what happened.
 * @returns {{ text: string, citations: number, issues: number, unmapped: string[], overrides: number }}
 */
export function rewriteComment(comment, path) {
  let text = comment;
  let overrides = 0;
  for (const o of OVERRIDES) {
    if (o.file.test(path) && text.includes(o.from)) {
      text = text.split(o.from).join(o.to);
      overrides++;
    }
  }
  let citations = 0;
  const unmapped = [];
  text = text.replace(CITATION, (match, ...args) => {
    const groups = args.at(-1);
    const offset = args.at(-3);
    // The keywords: the line(s) the citation spans, without the spec's section titles
    // (`spec "Events"` names a part of the spec, not what the comment is about).
    const first = text.lastIndexOf('\n', offset - 1) + 1;
    const last = text.indexOf('\n', offset + match.length);
    const line = `${text.slice(first, last === -1 ? text.length : last)}${groups.title ?? ''}`.replace(
      /\bspec\s+"[^"\n]*"/g,
      '',
    );
    const previousLine = first > 0 ? lineAround(text, first - 2) : '';
    const anchors = [];
    for (const n of sectionsOf(groups.refs)) {
      const anchor = anchorFor(n, line, path, previousLine);
      if (anchor === null) {
        unmapped.push(match);
        return match;
      }
      if (!anchors.includes(anchor)) anchors.push(anchor);
    }
    citations++;
    // "decisions" at the end of a line, the refs on the next: keep the line break.
    const lead = groups.brk ? groups.brk.replace(/^[ \t]+/, '') : '';
    const trimmed = groups.brk ? TRIM : '';
    return `${trimmed}${lead}${linkTo(anchors)}`;
  });
  // A line that ended with "decisions" keeps no trailing space.
  text = text.replace(/[ \t]*\uE000/g, '');

  let issues = 0;
  const before = text;
  text = text
    // "Issue 19, docs/…: x" / "Issue 19: x" at the start of a sentence.
    .replace(/\b[Ii]ssue \d+(?: follow-up)?,\s*(?=docs\/contract\.md)/g, '')
    .replace(
      /(^|\n[ \t]*(?:\*|\/\/)?[ \t]*|[.:] )Issue \d+: (\w)/g,
      (_m, pre, c) => `${pre}${c.toUpperCase()}`,
    )
    // "(issue 19)", "(issue 6 follow-up)" → nothing.
    .replace(/[ \t]*\(issue \d+(?: follow-up)?\)/g, '')
    // "(issue 19, x)" / "(issue 6: x)" → "(x)".
    .replace(/\(issue \d+(?: follow-up)?[,:;]\s*/g, '(')
    // "(x, issue 19)" / "(x; issue 6)" / "(x and issue 19)", possibly across a line break.
    .replace(/(?:[,;]|\s+and)(?:[ \t]*\n[ \t]*(?:\*|\/\/)?)?[ \t]*issue \d+(?= *\))/g, '')
    // "x (issue 19 — y)" and other leftovers: "issue N" → nothing, tidy spaces.
    .replace(/[ \t]*\bissue \d+\b/g, '');
  if (text !== before) issues = (before.match(ISSUE) ?? []).length - (text.match(ISSUE) ?? []).length;
  return { text, citations, issues, unmapped, overrides };
}

// ---------------------------------------------------------------- files

/** The comment ranges of a source file, from the TypeScript parser (strings never included). */
export function commentRanges(source, fileName = 'file.ts') {
  const kind = /\.(?:tsx|jsx)$/.test(fileName)
    ? ts.ScriptKind.TSX
    : /\.[cm]?js$/.test(fileName)
      ? ts.ScriptKind.JS
      : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, kind);
  const seen = new Map();
  const add = (ranges) => {
    for (const r of ranges ?? []) seen.set(r.pos, r.end);
  };
  const visit = (node) => {
    add(ts.getLeadingCommentRanges(source, node.pos));
    add(ts.getTrailingCommentRanges(source, node.end));
    for (const child of node.getChildren(sf)) visit(child);
  };
  // A shebang line is not a comment range; skip it like the parser does.
  add(ts.getLeadingCommentRanges(source, ts.getShebang(source)?.length ?? 0));
  visit(sf);
  return [...seen].map(([pos, end]) => ({ pos, end })).sort((a, b) => a.pos - b.pos);
}

/** Rewrites one file's text. */
export function rewriteSource(source, path) {
  const ranges = commentRanges(source, path);
  let out = '';
  let last = 0;
  const result = { citations: 0, issues: 0, overrides: 0, unmapped: [], changes: [], outside: [] };
  for (const { pos, end } of ranges) {
    const comment = source.slice(pos, end);
    const r = rewriteComment(comment, path);
    result.citations += r.citations;
    result.issues += r.issues;
    result.overrides += r.overrides;
    result.unmapped.push(...r.unmapped);
    out += source.slice(last, pos) + r.text;
    last = end;
    if (r.text !== comment)
      result.changes.push({ line: lineNumber(source, pos), before: comment, after: r.text });
  }
  out += source.slice(last);
  // Citations and issue references left outside comments (strings, test titles): reported only.
  const inComment = (i) => ranges.some((r) => i >= r.pos && i < r.end);
  for (const m of source.matchAll(ANY_SECTION)) {
    if (!inComment(m.index))
      result.outside.push({ line: lineNumber(source, m.index), text: lineAround(source, m.index).trim() });
  }
  for (const m of source.matchAll(ISSUE)) {
    if (!inComment(m.index))
      result.outside.push({ line: lineNumber(source, m.index), text: lineAround(source, m.index).trim() });
  }
  return { text: out, ...result };
}

function lineNumber(text, index) {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function* walk(path) {
  const st = statSync(path);
  if (st.isFile()) {
    if (EXTENSIONS.test(path) && !path.endsWith('.d.ts')) yield path;
    return;
  }
  for (const entry of readdirSync(path)) {
    if (SKIP_DIRS.has(entry)) continue;
    yield* walk(join(path, entry));
  }
}

// ---------------------------------------------------------------- self-check

/** A template literal with a placeholder and a "comment" inside it: code, never a comment. */
const TEMPLATE_SOURCE = ['const t = `decisions §4 $', '{x} // decisions §4`;\n'].join('');

function selfCheck() {
  let failures = 0;
  const expect = (name, actual, expected) => {
    if (actual !== expected) {
      failures++;
      console.log(
        `FAIL ${name}\n  expected: ${JSON.stringify(expected)}\n  actual:   ${JSON.stringify(actual)}`,
      );
    } else console.log(`ok   ${name}`);
  };
  const rw = (src, path = 'packages/core/src/x.ts') => rewriteSource(src, path).text;

  expect(
    'a JSDoc citation',
    rw('/** Idempotency hook (decisions §12). */\nexport const a = 1;\n'),
    '/** Idempotency hook (docs/contract.md#idempotency). */\nexport const a = 1;\n',
  );
  expect(
    'a line comment',
    rw('// Paid, nothing shipped: processing (decisions §13).\nconst a = 1;\n'),
    '// Paid, nothing shipped: processing (docs/contract.md#order-status).\nconst a = 1;\n',
  );
  expect(
    'strings are never touched',
    rw("describe('cart (decisions §12)', () => {});\n"),
    "describe('cart (decisions §12)', () => {});\n",
  );
  expect('template literals are never touched', rw(TEMPLATE_SOURCE), TEMPLATE_SOURCE);
  expect(
    'regular expressions are never touched',
    rw('const r = /decisions §4/; // decisions §4 errors\n'),
    'const r = /decisions §4/; // docs/contract.md#errors errors\n',
  );
  expect(
    'RFC sections stay',
    rw('/** weak comparison (RFC 9110 §13.1.2) */\nlet a;\n'),
    '/** weak comparison (RFC 9110 §13.1.2) */\nlet a;\n',
  );
  expect(
    'several sections, one anchor each, deduplicated',
    rw(
      '/** Storefront carts (spec "Cart", decisions §3, §8, §12). */\nlet a;\n',
      'packages/http/src/routes/carts.ts',
    ),
    '/** Storefront carts (docs/contract.md#cart-ownership, #carts). */\nlet a;\n',
  );
  expect('a range', sectionsOf('§10–§13').join(','), '10,11,12,13');
  expect(
    'keywords choose among a split section',
    rw('/** `Idempotency-Key` on POST (decisions §12): the first request */\nlet a;\n'),
    '/** `Idempotency-Key` on POST (docs/contract.md#idempotency): the first request */\nlet a;\n',
  );
  expect(
    'a quoted title goes with the citation',
    rw('/* The sizes every input must keep (decisions §15 "Sizes"), in one place. */\nlet a;\n'),
    '/* The sizes every input must keep (docs/contract.md#input-limits), in one place. */\nlet a;\n',
  );
  expect(
    '"decisions" at the end of a line',
    rw('/**\n * it completes (`order.completed`, decisions\n * §13). Event\n */\nlet a;\n'),
    '/**\n * it completes (`order.completed`,\n * docs/contract.md#order-status). Event\n */\nlet a;\n',
  );
  expect(
    'issue references in parentheses',
    rw('/** Checkout (decisions §12, issue 6): turns */\nlet a;\n'),
    '/** Checkout (docs/contract.md#checkout): turns */\nlet a;\n',
  );
  expect(
    'an issue reference alone',
    rw('/** Payment provider webhooks (issue 6). POST */\nlet a;\n'),
    '/** Payment provider webhooks. POST */\nlet a;\n',
  );
  expect(
    '"Issue N:" opening a sentence',
    rw('/**\n * Issue 19: an order gives back\n */\nlet a;\n'),
    '/**\n * An order gives back\n */\nlet a;\n',
  );
  expect(
    '"Issue N, decisions §N:" opening a sentence',
    rw('/**\n * Issue 19, decisions §12: concurrent requests on one cart\n */\nlet a;\n'),
    '/**\n * docs/contract.md#cart-concurrency: concurrent requests on one cart\n */\nlet a;\n',
  );
  expect(
    'idempotent',
    rw(rw('/** A (decisions §4, §15, issue 19). */\nlet a;\n')),
    '/** A (docs/contract.md#errors, #limits). */\nlet a;\n',
  );

  // Every anchor the map produces exists in the contract, and every link in it resolves.
  const doc = readFileSync(join(ROOT, CONTRACT), 'utf8');
  const ids = new Set([...doc.matchAll(/<a id="([a-z0-9-]+)"><\/a>/g)].map((m) => m[1]));
  const missing = [...allAnchors()].filter((a) => !ids.has(a));
  expect('every anchor of the map exists in docs/contract.md', missing.join(', '), '');
  const broken = [...doc.matchAll(/\]\(#([a-z0-9-]+)\)/g)].map((m) => m[1]).filter((a) => !ids.has(a));
  expect('every in-page link of docs/contract.md resolves', [...new Set(broken)].join(', '), '');

  // The error table of the contract is the status map's.
  const map = readFileSync(join(ROOT, 'packages/http/src/status-map.ts'), 'utf8');
  const body = map.slice(map.indexOf('STATUS_BY_CODE'), map.indexOf('};', map.indexOf('STATUS_BY_CODE')));
  const byCode = new Map([...body.matchAll(/^\s+([a-z_]+): (\d{3}),$/gm)].map((m) => [m[1], Number(m[2])]));
  const table = doc.slice(doc.indexOf('<a id="error-codes">'), doc.indexOf('<a id="lists">'));
  const documented = new Map();
  for (const row of table.matchAll(/^\| (\d{3}) +\|[^|]*\|([^|]*)\|$/gm)) {
    for (const code of row[2].matchAll(/`([a-z_]+)`/g)) documented.set(code[1], Number(row[1]));
  }
  const disagree = [];
  for (const [code, status] of byCode)
    if (documented.get(code) !== status) disagree.push(`${code}: map ${status}, doc ${documented.get(code)}`);
  for (const code of documented.keys()) if (!byCode.has(code)) disagree.push(`${code}: in the doc only`);
  expect(`the error table matches status-map.ts (${byCode.size} codes)`, disagree.join('; '), '');

  console.log(failures === 0 ? '\nself-check passed' : `\n${failures} check(s) failed`);
  process.exit(failures === 0 ? 0 : 1);
}

// ---------------------------------------------------------------- main

function main(argv) {
  if (argv.includes('--self-check')) return selfCheck();
  const write = argv.includes('--write');
  const all = argv.includes('--all');
  const targets = argv.filter((a) => !a.startsWith('--'));
  const roots = (targets.length > 0 ? targets : DEFAULT_ROOTS).map((p) => resolve(ROOT, p));

  const totals = { files: 0, citations: 0, issues: 0, overrides: 0 };
  const unmapped = [];
  const outside = [];
  const samples = [];
  const self = fileURLToPath(import.meta.url);
  for (const root of roots) {
    for (const file of walk(root)) {
      if (file === self) continue;
      const rel = relative(ROOT, file);
      const source = readFileSync(file, 'utf8');
      if (!source.includes('§') && !/\b[Ii]ssue \d/.test(source)) continue;
      const r = rewriteSource(source, rel);
      for (const u of r.unmapped) unmapped.push(`${rel}: ${u}`);
      for (const o of r.outside) outside.push(`${rel}:${o.line}: ${o.text}`);
      if (r.text === source) continue;
      totals.files++;
      totals.citations += r.citations;
      totals.issues += r.issues;
      totals.overrides += r.overrides;
      console.log(
        `${rel}: ${r.citations} citation(s), ${r.issues} issue reference(s)${r.overrides ? `, ${r.overrides} hand-written` : ''}`,
      );
      for (const c of r.changes) samples.push({ file: rel, ...c });
      if (write) writeFileSync(file, r.text);
    }
  }

  const shown = all
    ? samples
    : samples.filter((_, i) => i % Math.max(1, Math.floor(samples.length / 25)) === 0).slice(0, 25);
  console.log(
    `\n${all ? 'Every' : 'A sample of the'} rewrite${all ? '' : 's'} (${shown.length} of ${samples.length} comments):`,
  );
  for (const s of shown) {
    const diff = changedLines(s.before, s.after);
    console.log(`\n  ${s.file}:${s.line}`);
    for (const [b, a] of diff) console.log(`  - ${b.trim()}\n  + ${a.trim()}`);
  }
  console.log(`\nCitations not mapped: ${unmapped.length}`);
  for (const u of unmapped) console.log(`  ${u}`);
  console.log(`\nLeft as they are, outside comments (strings such as test titles): ${outside.length}`);
  for (const o of outside) console.log(`  ${o}`);
  console.log(
    `\n${write ? 'Rewrote' : 'Would rewrite'} ${totals.citations} citation(s) and ${totals.issues} issue reference(s) in ${totals.files} file(s)` +
      `${totals.overrides ? ` (${totals.overrides} hand-written rewrites)` : ''}${write ? '.' : '; --write applies them.'}`,
  );
}

/** Pairs of changed lines between two versions of a comment (same line count, or the whole). */
function changedLines(before, after) {
  const b = before.split('\n');
  const a = after.split('\n');
  if (a.length !== b.length) return [[before.replace(/\n/g, ' ⏎ '), after.replace(/\n/g, ' ⏎ ')]];
  return b.map((line, i) => [line, a[i]]).filter(([x, y]) => x !== y);
}

main(process.argv.slice(2));
