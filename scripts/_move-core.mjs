#!/usr/bin/env node
/**
 * One-off: moves packages/core/src into folders by bounded context (issue 22) and rewrites every
 * relative module specifier in packages/core/src to follow.
 *
 *   node scripts/_move-core.mjs [--root <repo>] [--no-git]
 *
 * Phase 1 (MOVES): `git mv` old → new for every file in the map; each relative specifier of every
 * file (`from '…'`, `import('…')`, `export … from '…'`, calls such as `vi.mock('…')`) is resolved
 * against the importer's OLD location, mapped, and re-relativized from the importer's NEW location
 * (extensionless; a folder import stays a folder import). Importers of a DISSOLVED barrel get one
 * declaration per module the names come from (`export *` expands into the barrel's lines).
 *
 * Phase 2 (VOCABULARY): the status/kind unions move out of ports/storage/records.ts into
 * `<context>/vocabulary.ts`; records.ts imports and re-exports them (the storage subpath's export
 * list does not change), and every core file outside ports/ imports them from their context.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const args = process.argv.slice(2);
const ROOT = resolve(args.includes('--root') ? args[args.indexOf('--root') + 1] : '.');
const GIT = !args.includes('--no-git');
const SRC = join(ROOT, 'packages/core/src');

// ------------------------------------------------------------------------------ the map
/** Old path → new path, relative to packages/core/src. Files not listed stay. */
const MOVES = {
  // ---- shared kernel
  'errors/commerce-error.ts': 'shared/errors/commerce-error.ts',
  'errors/error-codes.ts': 'shared/errors/error-codes.ts',
  'errors/index.ts': 'shared/errors/index.ts',
  'money/allocate.test.ts': 'shared/money/allocate.test.ts',
  'money/allocate.ts': 'shared/money/allocate.ts',
  'money/decimal.test.ts': 'shared/money/decimal.test.ts',
  'money/decimal.ts': 'shared/money/decimal.ts',
  'money/index.ts': 'shared/money/index.ts',
  'money/money.test.ts': 'shared/money/money.test.ts',
  'money/money.ts': 'shared/money/money.ts',
  'money/percentage.test.ts': 'shared/money/percentage.test.ts',
  'money/percentage.ts': 'shared/money/percentage.ts',
  'money/rounding.test.ts': 'shared/money/rounding.test.ts',
  'money/rounding.ts': 'shared/money/rounding.ts',
  'services/context.ts': 'shared/context.ts',
  'services/unit-of-work.ts': 'shared/unit-of-work.ts',
  'services/idempotency-service.ts': 'shared/idempotency-service.ts',
  'services/loaded-page.test.ts': 'shared/loaded-page.test.ts',
  'services/loaded-page.ts': 'shared/loaded-page.ts',
  'services/rate-limits/client-address.test.ts': 'shared/rate-limits/client-address.test.ts',
  'services/rate-limits/client-address.ts': 'shared/rate-limits/client-address.ts',
  'services/rate-limits/rate-limiter.test.ts': 'shared/rate-limits/rate-limiter.test.ts',
  'services/rate-limits/rate-limiter.ts': 'shared/rate-limits/rate-limiter.ts',
  'services/rate-limits/token-buckets.test.ts': 'shared/rate-limits/token-buckets.test.ts',
  'services/rate-limits/token-buckets.ts': 'shared/rate-limits/token-buckets.ts',
  'services/scheduling/polling-loop.test.ts': 'shared/scheduling/polling-loop.test.ts',
  'services/scheduling/polling-loop.ts': 'shared/scheduling/polling-loop.ts',
  'services/orders/pending-scan.test.ts': 'shared/scheduling/pending-scan.test.ts',
  'services/orders/pending-scan.ts': 'shared/scheduling/pending-scan.ts',
  'services/wire/format.test.ts': 'shared/wire-format.test.ts',
  'services/wire/format.ts': 'shared/wire-format.ts',
  'schemas/common.test.ts': 'shared/schemas/common.test.ts',
  'schemas/common.ts': 'shared/schemas/common.ts',
  'schemas/country-codes.ts': 'shared/schemas/country-codes.ts',
  'schemas/limits.test.ts': 'shared/schemas/limits.test.ts',
  'schemas/limits.ts': 'shared/schemas/limits.ts',
  'schemas/parse.test.ts': 'shared/schemas/parse.test.ts',
  'schemas/parse.ts': 'shared/schemas/parse.ts',
  'schemas/test-helpers.ts': 'shared/schemas/test-helpers.ts',
  'state/state-machine.test.ts': 'shared/state-machine.test.ts',
  'state/state-machine.ts': 'shared/state-machine.ts',
  'state/transitions.test.ts': 'shared/transitions.test.ts',
  // ---- events (the engine's event bus, event types and their typed payloads)
  'services/event-bus.ts': 'events/event-bus.ts',
  'schemas/events.ts': 'events/schemas.ts',
  // ---- store: store settings, organization, API keys, authentication
  'services/store-service.ts': 'store/store-service.ts',
  'services/api-key-cache.test.ts': 'store/api-key-cache.test.ts',
  'services/api-key-cache.ts': 'store/api-key-cache.ts',
  'services/api-key-service.ts': 'store/api-key-service.ts',
  'services/auth-service.ts': 'store/auth-service.ts',
  'schemas/store.test.ts': 'store/schemas.test.ts',
  'schemas/store.ts': 'store/schemas.ts',
  'schemas/api-keys.test.ts': 'store/api-key-schemas.test.ts',
  'schemas/api-keys.ts': 'store/api-key-schemas.ts',
  'services/wire/store.ts': 'store/wire.ts',
  // ---- catalog: products, variants, images, shipping methods, storefront views
  'services/catalog/image-commands.ts': 'catalog/image-commands.ts',
  'services/catalog/money-input.test.ts': 'catalog/money-input.test.ts',
  'services/catalog/money-input.ts': 'catalog/money-input.ts',
  'services/catalog/product-commands.ts': 'catalog/product-commands.ts',
  'services/catalog/product-queries.ts': 'catalog/product-queries.ts',
  'services/catalog/product-records.ts': 'catalog/product-records.ts',
  'services/catalog/product-service.ts': 'catalog/product-service.ts',
  'services/catalog/product-support.ts': 'catalog/product-support.ts',
  'services/catalog/shipping-method-service.ts': 'catalog/shipping-method-service.ts',
  'services/catalog/slug.test.ts': 'catalog/slug.test.ts',
  'services/catalog/slug.ts': 'catalog/slug.ts',
  'services/catalog/variant-commands.ts': 'catalog/variant-commands.ts',
  'services/catalog/variant-options.test.ts': 'catalog/variant-options.test.ts',
  'services/catalog/variant-options.ts': 'catalog/variant-options.ts',
  'services/catalog/variant-page.test.ts': 'catalog/variant-page.test.ts',
  'services/catalog/variant-page.ts': 'catalog/variant-page.ts',
  'schemas/catalog.test.ts': 'catalog/schemas.test.ts',
  'schemas/catalog.ts': 'catalog/schemas.ts',
  'schemas/shipping.test.ts': 'catalog/shipping-schemas.test.ts',
  'schemas/shipping.ts': 'catalog/shipping-schemas.ts',
  'services/wire/catalog.test.ts': 'catalog/wire.test.ts',
  'services/wire/catalog.ts': 'catalog/wire.ts',
  'services/wire/shipping.ts': 'catalog/shipping-wire.ts',
  'services/wire/storefront-product-text.test.ts': 'catalog/storefront-product-text.test.ts',
  'services/wire/storefront-product-text.ts': 'catalog/storefront-product-text.ts',
  // ---- carts: carts, their pricing (lines, discounts applied, shipping, tax), ownership, merge
  'services/carts/cart-access.ts': 'carts/cart-access.ts',
  'services/carts/cart-merge.test.ts': 'carts/cart-merge.test.ts',
  'services/carts/cart-merge.ts': 'carts/cart-merge.ts',
  'services/carts/cart-pricing.ts': 'carts/cart-pricing.ts',
  'services/carts/cart-service.ts': 'carts/cart-service.ts',
  'services/carts/money-input.ts': 'carts/money-input.ts',
  'state/cart-transitions.ts': 'carts/cart-transitions.ts',
  'schemas/carts.test.ts': 'carts/schemas.test.ts',
  'schemas/carts.ts': 'carts/schemas.ts',
  'services/wire/carts.ts': 'carts/wire.ts',
  'pricing/index.ts': 'carts/pricing/index.ts',
  'pricing/price-cart-types.ts': 'carts/pricing/price-cart-types.ts',
  'pricing/price-cart.property.test.ts': 'carts/pricing/price-cart.property.test.ts',
  'pricing/price-cart.test.ts': 'carts/pricing/price-cart.test.ts',
  'pricing/price-cart.ts': 'carts/pricing/price-cart.ts',
  'pricing/pricing-fixtures.ts': 'carts/pricing/pricing-fixtures.ts',
  'pricing/tax.test.ts': 'carts/pricing/tax.test.ts',
  'pricing/tax.ts': 'carts/pricing/tax.ts',
  // ---- discounts: definitions, conditions, eligibility, amounts, usage limits, the service
  'pricing/discounts/discount-amounts.test.ts': 'discounts/discount-amounts.test.ts',
  'pricing/discounts/discount-amounts.ts': 'discounts/discount-amounts.ts',
  'pricing/discounts/discount-conditions.test.ts': 'discounts/discount-conditions.test.ts',
  'pricing/discounts/discount-conditions.ts': 'discounts/discount-conditions.ts',
  'pricing/discounts/discount-definition.ts': 'discounts/discount-definition.ts',
  'pricing/discounts/discount-eligibility.test.ts': 'discounts/discount-eligibility.test.ts',
  'pricing/discounts/discount-eligibility.ts': 'discounts/discount-eligibility.ts',
  'pricing/discounts/discount-order.test.ts': 'discounts/discount-order.test.ts',
  'pricing/discounts/discount-order.ts': 'discounts/discount-order.ts',
  'pricing/discounts/index.ts': 'discounts/index.ts',
  'services/carts/discount-service.ts': 'discounts/discount-service.ts',
  'services/orders/discount-usage.ts': 'discounts/discount-usage.ts',
  'schemas/discounts.test.ts': 'discounts/schemas.test.ts',
  'schemas/discounts.ts': 'discounts/schemas.ts',
  'services/wire/discounts.ts': 'discounts/wire.ts',
  // ---- checkout: claim, attempts, the order transaction, settlement
  'services/orders/checkout-attempts.test.ts': 'checkout/checkout-attempts.test.ts',
  'services/orders/checkout-attempts.ts': 'checkout/checkout-attempts.ts',
  'services/orders/checkout-claim.ts': 'checkout/checkout-claim.ts',
  'services/orders/checkout-in-process.ts': 'checkout/checkout-in-process.ts',
  'services/orders/checkout-order.ts': 'checkout/checkout-order.ts',
  'services/orders/checkout-service.ts': 'checkout/checkout-service.ts',
  'services/orders/checkout-settlement.ts': 'checkout/checkout-settlement.ts',
  // ---- orders: life cycle, status machines, fulfillments, progress, queries
  'services/orders/order-builder.ts': 'orders/order-builder.ts',
  'services/orders/order-cancellation.ts': 'orders/order-cancellation.ts',
  'services/orders/order-fixtures.ts': 'orders/order-fixtures.ts',
  'services/orders/order-fulfillments.ts': 'orders/order-fulfillments.ts',
  'services/orders/order-lifecycle.ts': 'orders/order-lifecycle.ts',
  'services/orders/order-loading.ts': 'orders/order-loading.ts',
  'services/orders/order-progress.test.ts': 'orders/order-progress.test.ts',
  'services/orders/order-progress.ts': 'orders/order-progress.ts',
  'services/orders/order-queries.ts': 'orders/order-queries.ts',
  'services/orders/order-service.ts': 'orders/order-service.ts',
  'state/fulfillment-status.test.ts': 'orders/fulfillment-status.test.ts',
  'state/fulfillment-status.ts': 'orders/fulfillment-status.ts',
  'state/fulfillment-transitions.ts': 'orders/fulfillment-transitions.ts',
  'state/order-actions.test.ts': 'orders/order-actions.test.ts',
  'state/order-actions.ts': 'orders/order-actions.ts',
  'state/order-automation.test.ts': 'orders/order-automation.test.ts',
  'state/order-automation.ts': 'orders/order-automation.ts',
  'state/order-transitions.ts': 'orders/order-transitions.ts',
  'schemas/orders.test.ts': 'orders/schemas.test.ts',
  'schemas/orders.ts': 'orders/schemas.ts',
  'services/wire/orders.ts': 'orders/wire.ts',
  // ---- payments: the payment service, providers registry, attempts, provider webhooks, sync,
  //      reconciliation, the payment status machines
  'services/orders/order-payments.ts': 'payments/order-payments.ts',
  'services/orders/payment-attempt.ts': 'payments/payment-attempt.ts',
  'services/orders/payment-reconciliation.ts': 'payments/payment-reconciliation.ts',
  'services/orders/payment-registry.test.ts': 'payments/payment-registry.test.ts',
  'services/orders/payment-registry.ts': 'payments/payment-registry.ts',
  'services/orders/payment-service.ts': 'payments/payment-service.ts',
  'services/orders/payment-sync.ts': 'payments/payment-sync.ts',
  'services/orders/payment-webhooks.ts': 'payments/payment-webhooks.ts',
  'services/orders/reconcile-schedule.test.ts': 'payments/reconcile-schedule.test.ts',
  'services/orders/reconcile-schedule.ts': 'payments/reconcile-schedule.ts',
  'state/payment-status.test.ts': 'payments/payment-status.test.ts',
  'state/payment-status.ts': 'payments/payment-status.ts',
  'state/payment-transitions.ts': 'payments/payment-transitions.ts',
  // ---- refunds (refunds/*.ts rules stay): the services, ledger, provider settlement, machine
  'services/orders/order-refunds.test.ts': 'refunds/order-refunds.test.ts',
  'services/orders/order-refunds.ts': 'refunds/order-refunds.ts',
  'services/orders/provider-refund-settlement.test.ts': 'refunds/provider-refund-settlement.test.ts',
  'services/orders/provider-refund-settlement.ts': 'refunds/provider-refund-settlement.ts',
  'services/orders/refund-ledger.test.ts': 'refunds/refund-ledger.test.ts',
  'services/orders/refund-ledger.ts': 'refunds/refund-ledger.ts',
  'services/orders/refund-payments.test.ts': 'refunds/refund-payments.test.ts',
  'services/orders/refund-payments.ts': 'refunds/refund-payments.ts',
  'services/orders/refund-reconciliation.ts': 'refunds/refund-reconciliation.ts',
  'state/refund-transitions.ts': 'refunds/refund-transitions.ts',
  // ---- customers: customers, addresses, tokens, accounts, passwords
  'services/customers/customer-accounts.ts': 'customers/customer-accounts.ts',
  'services/customers/customer-address-book.ts': 'customers/customer-address-book.ts',
  'services/customers/customer-changes.test.ts': 'customers/customer-changes.test.ts',
  'services/customers/customer-changes.ts': 'customers/customer-changes.ts',
  'services/customers/customer-service.ts': 'customers/customer-service.ts',
  'services/customers/customer-tokens.ts': 'customers/customer-tokens.ts',
  'services/customers/customer-views.ts': 'customers/customer-views.ts',
  'services/customers/passwords.test.ts': 'customers/passwords.test.ts',
  'services/customers/passwords.ts': 'customers/passwords.ts',
  'schemas/customers.test.ts': 'customers/schemas.test.ts',
  'schemas/customers.ts': 'customers/schemas.ts',
  'services/wire/customers.ts': 'customers/wire.ts',
  // ---- inventory (inventory/*.ts rules stay): the service, events, order reservations
  'services/customers/inventory-service.ts': 'inventory/inventory-service.ts',
  'services/inventory-events.ts': 'inventory/inventory-events.ts',
  'services/orders/order-inventory.ts': 'inventory/order-inventory.ts',
  'schemas/inventory.test.ts': 'inventory/schemas.test.ts',
  'schemas/inventory.ts': 'inventory/schemas.ts',
  'services/wire/inventory.ts': 'inventory/wire.ts',
  // ---- webhooks: subscriptions, dispatcher, worker, sender, signing, retry schedule, samples
  'services/webhooks/retry-schedule.test.ts': 'webhooks/retry-schedule.test.ts',
  'services/webhooks/retry-schedule.ts': 'webhooks/retry-schedule.ts',
  'services/webhooks/sample-payloads.test.ts': 'webhooks/sample-payloads.test.ts',
  'services/webhooks/sample-payloads.ts': 'webhooks/sample-payloads.ts',
  'services/webhooks/subscriptions.test.ts': 'webhooks/subscriptions.test.ts',
  'services/webhooks/subscriptions.ts': 'webhooks/subscriptions.ts',
  'services/webhooks/webhook-dispatcher.ts': 'webhooks/webhook-dispatcher.ts',
  'services/webhooks/webhook-sender.ts': 'webhooks/webhook-sender.ts',
  'services/webhooks/webhook-service.ts': 'webhooks/webhook-service.ts',
  'services/webhooks/webhook-signing.ts': 'webhooks/webhook-signing.ts',
  'services/webhooks/webhook-worker.ts': 'webhooks/webhook-worker.ts',
  'schemas/webhooks.test.ts': 'webhooks/schemas.test.ts',
  'schemas/webhooks.ts': 'webhooks/schemas.ts',
  'services/wire/webhooks.ts': 'webhooks/wire.ts',
};

/** Barrels removed: their importers import from the modules behind them. */
const DISSOLVED = ['state/index.ts'];

/**
 * Phase 2: the domain vocabulary. Each union moves, with its comment, from
 * ports/storage/records.ts to the context's vocabulary.ts. `local` unions were written inline
 * in records.ts: they get a name in the context, records.ts uses it without re-exporting it.
 */
const VOCABULARY = {
  'store/vocabulary.ts': { names: ['KeyType'], title: 'The words of the store context' },
  'catalog/vocabulary.ts': { names: ['ProductType', 'ProductStatus'], title: 'The words of the catalog' },
  'discounts/vocabulary.ts': {
    names: ['DiscountValueType', 'DiscountTarget', 'DiscountConditionType', 'DiscountUsageRefusal'],
    title: 'The words of discounts',
  },
  'carts/vocabulary.ts': { names: ['CartStatus'], title: 'The words of carts' },
  'orders/vocabulary.ts': {
    names: ['OrderStatus', 'FulfillmentStatus', 'FulfillmentRecordStatus'],
    title: 'The words of orders and their fulfillments',
  },
  'payments/vocabulary.ts': {
    names: ['PaymentStatus', 'PaymentRecordStatus'],
    title: 'The words of payments',
  },
  'refunds/vocabulary.ts': { names: ['RefundRecordStatus'], title: 'The words of refunds' },
  'webhooks/vocabulary.ts': { names: ['WebhookDeliveryStatus'], title: 'The words of webhooks' },
  'customers/vocabulary.ts': {
    names: [],
    local: [
      {
        name: 'CustomerStatus',
        doc: "A customer's status (the customer object's `status`).",
        field: "status: 'active' | 'disabled';",
        text: "'active' | 'disabled'",
      },
    ],
    title: 'The words of customers',
  },
};
const RECORDS = 'ports/storage/records.ts';

// --------------------------------------------------------------------------- helpers
const read = (rel) => readFileSync(join(SRC, rel), 'utf8');
const write = (rel, text) => {
  mkdirSync(dirname(join(SRC, rel)), { recursive: true });
  writeFileSync(join(SRC, rel), text);
};

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.(ts|tsx|mts|cts)$/.test(name)) out.push(relative(SRC, p).split('\\').join('/'));
  }
  return out;
}

/** Resolves a relative specifier of `fromRel` to a file of src (relative path), or null. */
function resolveSpec(fromRel, spec, exists) {
  const base = join(dirname(fromRel), spec).split('\\').join('/');
  for (const c of [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`, base]) if (exists(c)) return c;
  return null;
}

/** The specifier that reaches `targetRel` from `fromRel` (extensionless; folders by index). */
function specFor(fromRel, targetRel, folderStyle) {
  let t = targetRel.replace(/\.tsx?$/, '');
  if (folderStyle && t.endsWith('/index')) t = t.slice(0, -'/index'.length);
  let s = relative(dirname(fromRel), t).split('\\').join('/');
  if (s === '') s = '.';
  if (!s.startsWith('.')) s = `./${s}`;
  return s;
}

/** Every relative module specifier in `text`: { start, end, spec, node } (start/end: the quotes' inside). */
function specifiers(fileName, text) {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const out = [];
  const add = (lit, decl) => {
    if (lit && ts.isStringLiteralLike(lit) && lit.text.startsWith('.'))
      out.push({ start: lit.getStart(sf) + 1, end: lit.getEnd() - 1, spec: lit.text, decl });
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node.moduleSpecifier, node);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal, null);
    else if (ts.isCallExpression(node) && node.arguments.length > 0) {
      const callee = node.expression.getText(sf);
      if (node.expression.kind === ts.SyntaxKind.ImportKeyword || /^vi\.(mock|doMock|importActual|importMock|unmock)$/.test(callee))
        add(node.arguments[0], null);
    } else if (ts.isModuleDeclaration(node) && ts.isStringLiteral(node.name)) add(node.name, null);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return { sf, specs: out };
}

/** The names a module exports, by its own declarations and named re-exports. */
function exportedNames(text) {
  const sf = ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, true);
  const names = new Set();
  for (const st of sf.statements) {
    const exported = ts.canHaveModifiers(st) && ts.getModifiers(st)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (ts.isExportDeclaration(st) && st.exportClause && ts.isNamedExports(st.exportClause))
      for (const el of st.exportClause.elements) names.add(el.name.text);
    if (!exported) continue;
    if (ts.isVariableStatement(st)) for (const d of st.declarationList.declarations) names.add(d.name.getText(sf));
    else if (st.name) names.add(st.name.text);
  }
  return names;
}

/**
 * Rewrites a named import/export declaration into one declaration per module, `moduleOf(name)`
 * giving the specifier of each imported name (null: keep the declaration's own specifier).
 */
function splitNamed(decl, sf, ownSpec, moduleOf) {
  const isImport = ts.isImportDeclaration(decl);
  const clause = isImport ? decl.importClause : decl;
  const named = isImport ? clause?.namedBindings : decl.exportClause;
  if (!named || !ts.isNamedImports(named) && !ts.isNamedExports(named)) return null;
  if (isImport && clause.name) return null; // default import: not used in core
  const typeOnly = isImport ? clause.isTypeOnly : decl.isTypeOnly;
  const groups = new Map();
  for (const el of named.elements) {
    const imported = (el.propertyName ?? el.name).text;
    const spec = moduleOf(imported) ?? ownSpec;
    if (!groups.has(spec)) groups.set(spec, []);
    groups.get(spec).push(el.getText(sf));
  }
  if (groups.size === 1 && groups.has(ownSpec)) return null;
  const kw = isImport ? 'import' : 'export';
  return [...groups]
    .map(([spec, els]) => `${kw}${typeOnly ? ' type' : ''} { ${els.join(', ')} } from '${spec}';`)
    .join('\n');
}

// --------------------------------------------------------------------------- phase 1
function phase1() {
  const files = walk(SRC);
  const fileSet = new Set(files);
  for (const old of Object.keys(MOVES)) if (!fileSet.has(old)) throw new Error(`not in src: ${old}`);
  const targets = new Set();
  for (const f of files) {
    if (DISSOLVED.includes(f)) continue;
    const n = MOVES[f] ?? f;
    if (targets.has(n)) throw new Error(`two files land on ${n}`);
    targets.add(n);
  }
  const newOf = (old) => MOVES[old] ?? old;
  const exists = (rel) => fileSet.has(rel);

  // what a dissolved barrel re-exports: name → old module path; `export *` lines → old paths
  const barrels = new Map();
  for (const b of DISSOLVED) {
    const { specs } = specifiers(b, read(b));
    const modules = specs.map((s) => resolveSpec(b, s.spec, exists));
    const byName = new Map();
    for (const m of modules) for (const n of exportedNames(read(m))) byName.set(n, m);
    barrels.set(b, { modules, byName });
  }

  const out = new Map(); // new path → new text
  let rewritten = 0;
  for (const f of files) {
    if (DISSOLVED.includes(f)) continue;
    const text = read(f);
    const nf = newOf(f);
    const { sf, specs } = specifiers(f, text);
    const edits = []; // { start, end, text } over the whole text
    for (const s of specs) {
      const target = resolveSpec(f, s.spec, exists);
      if (target === null) throw new Error(`${f}: cannot resolve '${s.spec}'`);
      const folderStyle = target.endsWith('/index.ts') && !/\/index$/.test(s.spec);
      if (barrels.has(target)) {
        const { modules, byName } = barrels.get(target);
        const d = s.decl;
        if (!d) throw new Error(`${f}: dynamic use of dissolved barrel ${target}`);
        let replacement;
        if (ts.isExportDeclaration(d) && !d.exportClause)
          replacement = modules
            .map((m) => `export ${d.isTypeOnly ? 'type ' : ''}* from '${specFor(nf, newOf(m), true)}';`)
            .join('\n');
        else
          replacement = splitNamed(d, sf, '<barrel>', (name) => {
            const m = byName.get(name);
            if (!m) throw new Error(`${f}: '${name}' not found behind ${target}`);
            return specFor(nf, newOf(m), true);
          });
        edits.push({ start: d.getStart(sf), end: d.getEnd(), text: replacement });
        continue;
      }
      if (nf === f && newOf(target) === target) continue; // neither side moves
      const next = specFor(nf, newOf(target), folderStyle);
      if (next !== s.spec) edits.push({ start: s.start, end: s.end, text: next });
    }
    let t = text;
    for (const e of edits.sort((a, b) => b.start - a.start)) t = t.slice(0, e.start) + e.text + t.slice(e.end);
    if (t !== text) rewritten++;
    out.set(nf, { old: f, text: t });
  }

  // move, then write
  for (const [nf, { old }] of out) {
    if (nf === old) continue;
    mkdirSync(dirname(join(SRC, nf)), { recursive: true });
    if (GIT) execFileSync('git', ['mv', join(SRC, old), join(SRC, nf)], { cwd: ROOT });
    else execFileSync('mv', [join(SRC, old), join(SRC, nf)]);
  }
  for (const b of DISSOLVED) {
    if (GIT) execFileSync('git', ['rm', '-q', join(SRC, b)], { cwd: ROOT });
    else rmSync(join(SRC, b));
  }
  for (const [nf, { text }] of out) if (read(nf) !== text) write(nf, text);
  // empty folders left behind
  for (const d of ['services', 'state', 'pricing', 'money', 'errors']) {
    const p = join(SRC, d);
    if (existsSync(p) && walk(p).length === 0) rmSync(p, { recursive: true });
  }
  console.log(`phase 1: ${Object.keys(MOVES).length} files moved, ${DISSOLVED.length} barrel dissolved, ${rewritten} files rewritten`);
}

// --------------------------------------------------------------------------- phase 2
/** A doc comment holding `text`, wrapped at 100 columns. */
function comment(text) {
  const lines = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && ` * ${line} ${word}`.length > 100) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  return `/**\n${lines.map((l) => ` * ${l}`).join('\n')}\n */`;
}

function phase2() {
  let records = read(RECORDS);
  const owner = new Map(); // name → vocabulary file
  const reexport = [];
  for (const [file, v] of Object.entries(VOCABULARY)) {
    const parts = [
      comment(
        `${v.title}: the values core's rules decide on. The storage records use them (ports/storage/records.ts imports them from here), not the reverse.`,
      ),
    ];
    for (const name of v.names) {
      // the declaration with the doc comment right above it
      const re = new RegExp(`(?:/\\*\\*(?:(?!\\*/)[\\s\\S])*\\*/\\n)?export type ${name} =[^;]*;\\n`);
      const m = records.match(re);
      if (!m) throw new Error(`${name} not found in ${RECORDS}`);
      records = records.replace(m[0], '');
      parts.push(m[0].trimEnd());
      owner.set(name, file);
      reexport.push([file, name]);
    }
    for (const l of v.local ?? []) {
      if (!records.includes(l.field)) throw new Error(`${l.field} not found in ${RECORDS}`);
      records = records.replace(l.field, l.field.replace(l.text, l.name));
      parts.push(`/** ${l.doc} */\nexport type ${l.name} = ${l.text};`);
      owner.set(l.name, file);
      reexport.push([file, l.name, 'local']);
    }
    write(file, `${parts.join('\n\n')}\n`);
  }
  // records.ts: import what it uses, re-export what it exported
  const byFile = new Map();
  for (const [file, name, local] of reexport) {
    if (!byFile.has(file)) byFile.set(file, { all: [], exported: [] });
    byFile.get(file).all.push(name);
    if (!local) byFile.get(file).exported.push(name);
  }
  const imports = [];
  const exports = [];
  for (const [file, { all, exported }] of byFile) {
    const spec = specFor(RECORDS, file, false);
    const used = all.filter((name) => new RegExp(`\\b${name}\\b`).test(records));
    if (used.length) imports.push(`import type { ${used.join(', ')} } from '${spec}';`);
    if (exported.length) exports.push(`export type { ${exported.join(', ')} } from '${spec}';`);
  }
  records = records
    .replace(/^(import [^\n]*\n)/, `$1${imports.join('\n')}\n\n${exports.join('\n')}\n`)
    .replace(/\n{3,}/g, '\n\n');
  write(RECORDS, records);

  // every core file outside ports/ imports the vocabulary from its context
  const files = walk(SRC);
  const fileSet = new Set(files);
  const vocabFiles = new Set(Object.keys(VOCABULARY));
  let n = 0;
  for (const f of files) {
    if (f.startsWith('ports/') || vocabFiles.has(f)) continue;
    if (['storage.ts', 'providers.ts'].includes(f)) continue; // subpath entries: unchanged
    const text = read(f);
    const { sf, specs } = specifiers(f, text);
    const edits = [];
    for (const s of specs) {
      if (!s.decl || !ts.isImportDeclaration(s.decl)) continue;
      const target = resolveSpec(f, s.spec, (r) => fileSet.has(r));
      if (target !== RECORDS && target !== 'ports/storage/index.ts' && target !== 'ports/index.ts') continue;
      const replacement = splitNamed(s.decl, sf, s.spec, (name) =>
        owner.has(name) ? specFor(f, owner.get(name), false) : null,
      );
      if (replacement) edits.push({ start: s.decl.getStart(sf), end: s.decl.getEnd(), text: replacement });
    }
    let t = text;
    for (const e of edits.sort((a, b) => b.start - a.start)) t = t.slice(0, e.start) + e.text + t.slice(e.end);
    if (t !== text) {
      write(f, t);
      n++;
    }
  }
  console.log(`phase 2: ${owner.size} vocabulary types in ${vocabFiles.size} files; ${n} importers now import them from their context`);
}

// --------------------------------------------------------------------------- phase 3
/**
 * Paths of moved files named in comments and docs (`services/wire/format.ts`, with or without
 * `packages/core/src/`). docs/benchmarks.md is left alone: its tables are recorded profiles, with
 * the line numbers of the day.
 */
function phase3() {
  const docs = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md') && f !== 'benchmarks.md').map((f) => `docs/${f}`)];
  const others = [];
  for (const pkg of readdirSync(join(ROOT, 'packages'))) {
    if (existsSync(join(ROOT, 'packages', pkg, 'README.md'))) docs.push(`packages/${pkg}/README.md`);
    for (const d of ['src', 'test'])
      if (existsSync(join(ROOT, 'packages', pkg, d)))
        for (const f of walkAbs(join(ROOT, 'packages', pkg, d))) others.push(relative(ROOT, f));
  }
  const olds = Object.keys(MOVES).sort((a, b) => b.length - a.length);
  const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(`(?<![\\w/.-])(packages/core/src/)?(${olds.map(escape).join('|')})(?![\\w-])`, 'g');
  const changed = [];
  for (const f of [...docs, ...others]) {
    const p = join(ROOT, f);
    if (!existsSync(p)) continue;
    const text = readFileSync(p, 'utf8');
    const next = text.replace(re, (_, prefix = '', old) => `${prefix}${MOVES[old]}`);
    if (next !== text) {
      writeFileSync(p, next);
      changed.push(f);
    }
  }
  console.log(`phase 3: paths named in ${changed.length} files: ${changed.join(', ')}`);
}

function walkAbs(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walkAbs(p, out);
    else if (/\.(ts|tsx|mts|cts|mjs|js|md)$/.test(name)) out.push(p);
  }
  return out;
}

phase1();
phase2();
phase3();
