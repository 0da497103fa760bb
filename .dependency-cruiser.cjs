/**
 * The layers of @cartwright/core (docs/architecture.md, "Layers"), checked by `pnpm check:deps`
 * (part of `pnpm lint`, so CI fails on a new cycle or an import that goes up).
 *
 * A module belongs to the first layer, listed from the bottom up, whose folder holds it (folder =
 * first path segment under packages/core/src). A module may import its own folder and any folder
 * of a LOWER layer — never one above it. Among the aggregates the order is a choice that keeps
 * them acyclic: reorder it when a new dependency needs it, as long as no folder ends up importing
 * one above it.
 *
 * Type-only imports (`import type`, `export type … from`) obey the same rule: they are erased at
 * run time and so form no load-order cycle, but a type still couples the layers (the storage port
 * naming a context's type is the port depending on the domain). Value imports additionally must
 * form no cycle at all, between modules as between folders. The exceptions are listed below, each
 * with its reason; none is a value import.
 *
 * Tests (`*.test.ts`) and test helpers are outside the rule: a test may set up anything.
 */

const SRC = '^packages/core/src/';

/** Bottom → top. `path` is a regular expression on the module path. */
const LAYERS = [
  // Words (status enums, record vocabulary): the port's types and the contexts' share them.
  { name: 'vocabulary', path: `${SRC}vocabulary/` },
  // The ports: interfaces to storage, providers, clock, crypto. They import no context.
  { name: 'ports', path: `${SRC}ports/` },
  // Shared kernels (errors, money, state machine, schema primitives, wire formats) and the
  // engine's plumbing every context uses (unit of work, service context, rate limits, scheduling).
  { name: 'shared', path: `${SRC}shared/` },
  // Leaves: pricing and tax, discount arithmetic (pricing/discounts/). Pure functions.
  { name: 'pricing', path: `${SRC}pricing/` },
  // Money across currencies (decisions §19): ISO 4217 exponents, exact rates and conversion, the
  // price of a variant in a region and a cart's region context. Pure rules and reads over the port.
  {
    name: 'currencies',
    path: `${SRC}regions/(?:currencies|exchange-rate|region-price|region-pricing-context)\\.ts$`,
  },
  // Languages (decisions §21): tags, negotiation and applying translations; the catalog, carts and
  // checkout read in a locale.
  { name: 'locales', path: `${SRC}locales/` },
  // Aggregates, in an order that keeps them acyclic.
  { name: 'inventory', path: `${SRC}inventory/` },
  { name: 'catalog', path: `${SRC}catalog/` },
  { name: 'categories', path: `${SRC}categories/` },
  // Collections (decisions §17): manual lists and rules over products (their CollectionDetail shows products).
  { name: 'collections', path: `${SRC}collections/` },
  { name: 'store', path: `${SRC}store/` },
  // Regions, region prices and currency rates (decisions §19): the admin service over the rules
  // below; it recomputes the catalog's representative prices in a region (catalog/).
  {
    name: 'regions',
    path: `${SRC}regions/(?!(?:currencies|exchange-rate|region-price|region-pricing-context)\\.ts$)`,
  },
  { name: 'customers', path: `${SRC}customers/` },
  { name: 'discounts', path: `${SRC}discounts/` },
  { name: 'carts', path: `${SRC}carts/` },
  { name: 'payments', path: `${SRC}payments/` },
  { name: 'fulfillments', path: `${SRC}fulfillments/` },
  { name: 'refunds', path: `${SRC}refunds/` },
  { name: 'orders', path: `${SRC}orders/` },
  // Returns and exchanges: a return's life cycle over its order (its Return is event data, so below events).
  { name: 'returns', path: `${SRC}returns/` },
  { name: 'events', path: `${SRC}events/` },
  { name: 'webhooks', path: `${SRC}webhooks/` },
  // Organization members, staff sessions and roles (decisions §23): above customers (the password
  // rules and attempt limits) and events (member.invited).
  { name: 'members', path: `${SRC}members/` },
  // Orchestration: workflows across aggregates.
  { name: 'checkout', path: `${SRC}checkout/` },
  { name: 'reconciliation', path: `${SRC}reconciliation/` },
  // The back office's reads (decisions §23): dashboard stats over orders, payments and stock; API logs.
  { name: 'dashboard', path: `${SRC}dashboard/` },
  // The API: the operation table, the engine and its composition, the public entry points and
  // the schemas barrel. Nothing below imports it.
  { name: 'api', path: `${SRC}(?:operations/|facade/|schemas/|[^/]+\\.ts$)` },
];

/**
 * Known type-only imports that go up, each owned by work in flight (issue 34): remove the entry
 * when the import goes. `from`/`to` are regular expressions on module paths.
 */
const TYPE_ONLY_EXCEPTIONS = [
  {
    layer: 'shared',
    from: `${SRC}shared/unit-of-work\\.ts$`,
    to: `${SRC}events/(?:event-data|schemas)\\.ts$`,
    reason: "Work.emit is typed by the events' data map; goes with the explicit request context",
  },
];

/** Pure inventory planning inside inventory/: it imports no service of its own folder. */
const INVENTORY_PLANNING = `${SRC}inventory/(?:inventory-plan|movements|availability|inventory-levels|thresholds)\\.ts$`;

const either = (paths) => paths.join('|');

const layerRules = LAYERS.slice(0, -1).map((layer, index) => {
  const above = LAYERS.slice(index + 1).map((l) => l.path);
  const exceptions = TYPE_ONLY_EXCEPTIONS.filter((e) => e.layer === layer.name);
  return {
    name: `layers/${layer.name}`,
    severity: 'error',
    comment: `${layer.name} imports only its own folder and the layers below it (${LAYERS.slice(0, index)
      .map((l) => l.name)
      .join(', ')}).`,
    from: {
      path: layer.path,
      ...(exceptions.length ? { pathNot: either(exceptions.map((e) => e.from)) } : {}),
    },
    to: { path: either(above) },
  };
});

const exceptionRules = TYPE_ONLY_EXCEPTIONS.map((exception) => {
  const layer = LAYERS.findIndex((l) => l.name === exception.layer);
  const above = LAYERS.slice(layer + 1).map((l) => l.path);
  return {
    name: `layers/${LAYERS[layer].name}-exception`,
    severity: 'error',
    comment: `Goes up only by the listed type-only import (${exception.reason}).`,
    from: { path: exception.from },
    to: { path: either(above), pathNot: exception.to },
  };
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    ...exceptionRules,
    ...TYPE_ONLY_EXCEPTIONS.map((exception) => ({
      name: 'layers/exception-type-only',
      severity: 'error',
      comment: `A listed exception is a type-only import (${exception.reason}).`,
      from: { path: exception.from },
      to: { path: exception.to, dependencyTypesNot: ['type-only'] },
    })),
    {
      name: 'layers/unassigned',
      severity: 'error',
      comment:
        'Every module of core belongs to a layer: add its folder to LAYERS in .dependency-cruiser.cjs.',
      from: { path: SRC, pathNot: either(LAYERS.map((l) => l.path)) },
      to: {},
    },
    {
      name: 'leaves/inventory-planning',
      severity: 'error',
      comment:
        'Inventory planning (plan, movements, availability, levels, thresholds) is a pure leaf: it imports no inventory service.',
      from: { path: INVENTORY_PLANNING },
      to: { path: `${SRC}inventory/`, pathNot: INVENTORY_PLANNING },
    },
    {
      name: 'cycles/modules',
      severity: 'error',
      comment: 'Value imports form no cycle between modules (type-only imports are erased at run time).',
      from: { path: SRC },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    includeOnly: SRC,
    exclude: { path: '\\.test\\.ts$|/test-helpers\\.ts$|\\.test-support\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: { conditionNames: ['@cartwright/source', 'import', 'default'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
