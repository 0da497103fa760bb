#!/usr/bin/env node
// A newcomer's app, outside the repository: installs the packed tarballs with npm from a fresh
// directory in the system temp folder and runs what the READMEs promise. Without --tarballs it
// packs the packages itself (`pnpm pack`: each package's prepack builds what it ships);
// `pnpm check:packages` runs it on the tarballs it checked, packed from a fresh install.
//
//   1. core + storage-kysely alone, no driver: sqliteStorage() fails with the one-line error
//      naming better-sqlite3 (and postgresStorage() naming pg).
//   2. every tarball plus better-sqlite3 from the registry: the "Example" of
//      packages/core/README.md, verbatim (types stripped), creates a product and checks out;
//      the HTTP handler answers /v1/openapi.json; @cartwright/testing's createTestEngine()
//      checks out with the fake card; the `cartwright` bin migrates a SQLite file.
//   3. a custom route from outside the monorepo, in TypeScript: `defineRoute` whose handler calls
//      the engine through `ctx.engine`, mounted with `createHandler` + `createNodeListener` and
//      called over HTTP, and a payment provider of its own (typed from @cartwright/core/providers)
//      that takes a checkout and appears in the served OpenAPI document; type-checked strict
//      without `skipLibCheck` under each supported moduleResolution — nodenext, node16 and
//      bundler — with nothing but the tarballs installed (tsc's time, memory and type count
//      printed, and the same with `skipLibCheck` for comparison). node10 (`moduleResolution:
//      node`, the default of `module: commonjs`) is tried and reported, not required: it ignores
//      the `exports` map (docs/embedding.md).
//   4. a third party's adapter tests: the test files of packages/storage-conformance/README.md,
//      verbatim (every ts/js block whose first line is `// <file name>`), run with vitest from the
//      registry against storage-kysely's SQLite adapter from its tarball — the whole conformance
//      suite in memory, and on a shared file with several storages and several OS processes (the
//      package's built worker, no TypeScript loader installed). Its time is printed.
//
// better-sqlite3's native addon: npm would download a prebuilt one from GitHub, which this
// machine cannot reach, or compile it (about a minute). So the app installs it with
// --ignore-scripts and, when the repository has the same version built, copies that addon (same
// Node, same ABI); otherwise, or with SCRATCH_BUILD_FROM_SOURCE=1, it compiles it
// (`npm rebuild better-sqlite3 --build-from-source`). BETTER_SQLITE3=<version> picks another
// version (to test the peer range; it is then compiled).
//
// With --postgres (run as `node --import tsx scripts/scratch-app.mjs --postgres`): also pg from
// the registry (PG=<version> picks one) and the same checkout on a throwaway PostgreSQL started
// by the repository's test helper (or CARTWRIGHT_TEST_PG_URL).
//
// Usage: node scripts/scratch-app.mjs [--tarballs <dir>] [--keep] [--postgres]
import { execFileSync, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { topologicalOrder, workspacePackages } from './prepack.mjs';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const args = process.argv.slice(2);
const keep = args.includes('--keep');
const started = performance.now();
const step = (message) =>
  console.log(`scratch-app [${((performance.now() - started) / 1000).toFixed(1)}s] ${message}`);

// --- the tarballs -----------------------------------------------------------------------------
let tarballDir = args.includes('--tarballs') ? resolve(args[args.indexOf('--tarballs') + 1]) : undefined;
const work = mkdtempSync(join(tmpdir(), 'cartwright-scratch-'));
process.on('exit', () => {
  if (keep) console.log(`scratch-app: kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
});
if (!tarballDir) {
  tarballDir = join(work, 'tarballs');
  mkdirSync(tarballDir);
  // Dependencies first: each prepack then finds the declarations of the packages it imports current.
  const byName = workspacePackages(root);
  for (const { dir, pkg } of topologicalOrder(byName).map((name) => byName.get(name))) {
    if (pkg.private) continue;
    execFileSync('pnpm', ['pack', '--pack-destination', tarballDir], { cwd: dir, stdio: 'ignore' });
  }
  step(`packed into ${tarballDir}`);
}
const tarball = (name) => {
  const file = readdirSync(tarballDir).find((f) => f.startsWith(`cartwright-${name}-`) && f.endsWith('.tgz'));
  if (!file) throw new Error(`no tarball for @cartwright/${name} in ${tarballDir}`);
  return join(tarballDir, file);
};

// An environment without the workspace: no NODE_PATH (pnpm's shims point it at the workspace's
// store) and npm's own settings only.
const env = {
  ...process.env,
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
};
for (const key of Object.keys(env)) {
  if (
    key === 'NODE_PATH' ||
    (key.startsWith('npm_') && !key.startsWith('npm_config_')) ||
    key.startsWith('PNPM_') ||
    key === 'INIT_CWD'
  )
    delete env[key];
}
delete env.npm_config_user_agent;

function sh(command, commandArgs, cwd, options = {}) {
  const result = spawnSync(command, commandArgs, { cwd, env: { ...env, ...options.env }, encoding: 'utf8' });
  if (result.status !== 0 && !options.allowFailure) {
    console.error(result.stdout, result.stderr);
    throw new Error(`${command} ${commandArgs.join(' ')} exited ${result.status} in ${cwd}`);
  }
  return result;
}

/** The version of a package installed in the repository (`dir` relative to its root). */
function repoVersionOf(dir) {
  return JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')).version;
}

function newApp(name) {
  const dir = join(work, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }, null, 2));
  writeFileSync(join(dir, '.npmrc'), ''); // not the repository's .npmrc
  return dir;
}

const failures = [];
const check = (ok, message) => {
  if (ok) console.log(`  ok   ${message}`);
  else {
    console.log(`  FAIL ${message}`);
    failures.push(message);
  }
};

// --- 1. no driver -----------------------------------------------------------------------------
const bare = newApp('no-driver');
sh('npm', ['install', '--no-package-lock', tarball('core'), tarball('storage-kysely')], bare);
step('no-driver app: core + storage-kysely installed (no driver)');
check(
  !existsSync(join(bare, 'node_modules', 'better-sqlite3')) && !existsSync(join(bare, 'node_modules', 'pg')),
  'the optional peer drivers were not installed',
);
for (const [entry, call, driver] of [
  ['sqlite', "sqliteStorage({ filename: ':memory:' })", 'better-sqlite3'],
  ['postgres', "postgresStorage({ connectionString: 'postgres://127.0.0.1:1/none' })", 'pg'],
]) {
  const script = `import { ${call.split('(')[0]} } from '@cartwright/storage-kysely/${entry}'; try { ${call}; console.log('opened'); } catch (e) { console.log(e.message); }`;
  const out = sh(process.execPath, ['--input-type=module', '-e', script], bare).stdout.trim();
  check(
    out.split('\n').length === 1 && out.includes(`npm install ${driver}`),
    `/${entry} without ${driver}: one line naming it — ${JSON.stringify(out)}`,
  );
}

// --- 2. the whole set, with better-sqlite3 ----------------------------------------------------
const repoDriver = realpathSync(join(root, 'packages', 'storage-kysely', 'node_modules', 'better-sqlite3'));
const repoVersion = JSON.parse(readFileSync(join(repoDriver, 'package.json'), 'utf8')).version;
const wanted = process.env.BETTER_SQLITE3 || repoVersion;
const app = newApp('app');
const names = [
  'core',
  'storage-kysely',
  'http',
  'testing',
  'webhooks',
  'payments-stripe',
  'cli',
  'storage-conformance',
];
const postgres = args.includes('--postgres');
const pgSpec = postgres
  ? [
      `pg@${process.env.PG || JSON.parse(readFileSync(join(root, 'packages', 'storage-kysely', 'node_modules', 'pg', 'package.json'), 'utf8')).version}`,
    ]
  : [];
sh(
  'npm',
  [
    'install',
    '--no-package-lock',
    '--ignore-scripts',
    ...names.map(tarball),
    `better-sqlite3@${wanted}`,
    // For the TypeScript stage: the app's own zod (the one @cartwright/http depends on) and Node's types.
    `zod@${repoVersionOf('packages/http/node_modules/zod')}`,
    `@types/node@${repoVersionOf('node_modules/@types/node')}`,
    // For the conformance stage: the test runner the suite is written for.
    `vitest@${repoVersionOf('node_modules/vitest')}`,
    ...pgSpec,
  ],
  app,
);
const installed = JSON.parse(
  readFileSync(join(app, 'node_modules', 'better-sqlite3', 'package.json'), 'utf8'),
).version;
step(`app: ${names.length} tarballs + better-sqlite3@${installed} installed (scripts ignored)`);
const addon = join('build', 'Release', 'better_sqlite3.node');
if (installed === repoVersion && !process.env.SCRATCH_BUILD_FROM_SOURCE) {
  mkdirSync(join(app, 'node_modules', 'better-sqlite3', 'build', 'Release'), { recursive: true });
  copyFileSync(join(repoDriver, addon), join(app, 'node_modules', 'better-sqlite3', addon));
  step(`better-sqlite3 ${installed}: the repository's addon for Node ${process.version} copied in`);
} else {
  sh('npm', ['rebuild', 'better-sqlite3', '--build-from-source'], app);
  step(`better-sqlite3 ${installed}: compiled from source`);
}

// The Example of packages/core/README.md, verbatim, types stripped by TypeScript.
const readme = readFileSync(join(root, 'packages', 'core', 'README.md'), 'utf8');
const example = /## Example\s+```ts\n([\s\S]*?)```/.exec(readme)?.[1];
if (!example) throw new Error('packages/core/README.md has no "## Example" ts block');
const ts = createRequire(join(root, 'package.json'))('typescript');
const js = ts.transpileModule(example, {
  compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
}).outputText;
writeFileSync(join(app, 'readme-example.mjs'), js);
const ran = sh(process.execPath, ['readme-example.mjs'], app, { allowFailure: true });
check(
  ran.status === 0 && /\{ amount: 5000, currency: 'USD' \}/.test(ran.stdout),
  `packages/core/README.md's example runs (product, cart, manual checkout): ${JSON.stringify((ran.stdout + ran.stderr).trim().slice(0, 300))}`,
);

writeFileSync(
  join(app, 'more.mjs'),
  `
import { createEngine } from '@cartwright/core';
import { createApiHandler } from '@cartwright/http';
import { sqliteStorage } from '@cartwright/storage-kysely/sqlite';
import { createTestEngine } from '@cartwright/testing';
import { verifyStandardWebhook } from '@cartwright/webhooks/verify';
import { stripeProvider } from '@cartwright/payments-stripe';
import { createRequire } from 'node:module';

const engine = await createEngine({ storage: sqliteStorage({ filename: ':memory:' }), payments: [stripeProvider({ secretKey: 'sk_test_x' })] });
const response = await createApiHandler(engine)(new Request('http://localhost/v1/openapi.json'));
const doc = await response.json();
console.log('openapi', response.status, doc.openapi);
await engine.close();

const t = await createTestEngine();
const { variant } = await t.fixtures.product({ price: 1000 });
const cart = await t.fixtures.cart([{ variant_id: variant.id, quantity: 2 }]);
const order = await t.checkout(cart.id);
console.log('testing', order.status, order.payment_status, order.total.amount);
await t.close();

console.log('webhooks', typeof verifyStandardWebhook);
// CommonJS consumers get the same packages.
const require = createRequire(import.meta.url);
console.log('require', typeof require('@cartwright/core').createEngine, typeof require('@cartwright/storage-kysely/sqlite').sqliteStorage);
`,
);
const more = sh(process.execPath, ['more.mjs'], app, { allowFailure: true });
const out = more.stdout + more.stderr;
check(
  more.status === 0 && /openapi 200 3\.1/.test(out),
  `@cartwright/http answers GET /v1/openapi.json: ${JSON.stringify(out.split('\n')[0])}`,
);
check(
  /testing confirmed paid 2000/.test(out),
  `@cartwright/testing: createTestEngine() checks out with the fake card: ${JSON.stringify(out.match(/testing .*/)?.[0] ?? out.slice(0, 300))}`,
);
check(/webhooks function/.test(out), '@cartwright/webhooks/verify imports');
check(
  /require function function/.test(out),
  'require() of core and storage-kysely/sqlite (the CommonJS builds)',
);

const cli = sh(join(app, 'node_modules', '.bin', 'cartwright'), ['migrate'], app, {
  allowFailure: true,
  env: { DATABASE_URL: join(app, 'data', 'shop.db') },
});
check(
  cli.status === 0 && existsSync(join(app, 'data', 'shop.db')),
  `the cartwright bin migrates a SQLite file: ${JSON.stringify((cli.stdout + cli.stderr).trim().slice(0, 200))}`,
);

// --- 3. a custom route, type-checked strict ---------------------------------------------------
// What an integrator writes: a route of their own next to the /v1 API. The handler's `ctx.engine`
// must be the engine (a method of it type-checks, an unknown one does not): the published
// declarations once typed it as the pipeline's narrow slice (issue 22).
writeFileSync(
  join(app, 'custom-route.ts'),
  `import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEngine } from '@cartwright/core';
import type { PaymentProvider } from '@cartwright/core/providers';
import { apiRoutes, createHandler, defineRoute, type RouteContext } from '@cartwright/http';
import { createNodeListener } from '@cartwright/http/node';
import { sqliteStorage } from '@cartwright/storage-kysely/sqlite';
import { z } from 'zod';

const SECRET = 'sk_test_scratchAppCustomRoute00001';

const catalogSummary = defineRoute({
  method: 'GET',
  path: '/v1/admin/catalog-summary',
  auth: 'secret',
  customerToken: 'none',
  response: z.object({ count: z.number().int(), names: z.array(z.string()) }),
  summary: 'The names of the active products',
  tags: ['Custom'],
  handler: async (ctx) => {
    const store = ctx.engine.forStore(ctx.scope);
    const page = await store.products.list({ status: 'active' });
    const names: string[] = page.data.map((product) => product.name);
    return { count: names.length, names };
  },
});

// ctx.engine is typed, not any: a method the engine does not have is an error.
export function engineIsTyped(ctx: RouteContext): void {
  // @ts-expect-error -- not an engine method
  void ctx.engine.notAnEngineMethod;
}

// A payment provider of our own, registered by name: checkout accepts it, OpenAPI lists it.
const voucher: PaymentProvider = {
  name: 'voucher',
  requiresPaymentMethod: true,
  async createPayment({ idempotency_key }) {
    return { status: 'succeeded', provider_id: idempotency_key };
  },
  async refundPayment({ idempotency_key }) {
    return { status: 'succeeded', provider_refund_id: idempotency_key };
  },
};

const engine = await createEngine({ storage: sqliteStorage({ filename: ':memory:' }), payments: [voucher] });
const scope = await engine.scopeFor('test');
await engine.apiKeys.register(scope.store_id, SECRET);
const store = engine.forStore(scope);
const tee = await store.products.create({
  name: 'Tee',
  status: 'active',
  variants: [{ price: 2500, inventory: { on_hand: 10 } }],
});
const cart = await store.carts.create({ items: [{ variant_id: tee.variants[0]!.id, quantity: 1 }] });
const order = await store.checkout(cart.id, {
  email: 'a@b.co',
  payment_provider: 'voucher',
  payment_method_id: 'V-100',
  shipping_address: { name: 'A B', line1: '1 Main St', city: 'Springfield', postal_code: '12345', country: 'US' },
});
console.log('custom-provider', order.payment_status, order.payments[0]?.provider);

const handler = createHandler(engine, { routes: [...apiRoutes, catalogSummary] });
const server = createServer(createNodeListener(handler));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = \`http://127.0.0.1:\${(server.address() as AddressInfo).port}\`;
const headers = { authorization: \`Bearer \${SECRET}\` };
const summary = await fetch(\`\${base}/v1/admin/catalog-summary\`, { headers });
console.log('custom-route', summary.status, JSON.stringify(await summary.json()));
const products = await fetch(\`\${base}/v1/admin/products\`, { headers });
console.log('api-route', products.status);
const document = (await (await fetch(\`\${base}/v1/openapi.json\`)).json()) as { paths: Record<string, unknown> };
console.log('openapi-lists-custom-route', '/v1/admin/catalog-summary' in document.paths);
console.log('openapi-lists-custom-provider', JSON.stringify(document).includes('"voucher"'));
server.close();
await engine.close();
`,
);
writeFileSync(
  join(app, 'tsconfig.json'),
  JSON.stringify(
    {
      compilerOptions: {
        strict: true,
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        types: ['node'],
        noEmit: true,
        skipLibCheck: false,
      },
      files: ['custom-route.ts'],
    },
    null,
    2,
  ),
);
// The other module resolutions a TypeScript app may use (docs/embedding.md): node16 and bundler
// are supported; node10 (`moduleResolution: node`) ignores `exports` and is not.
const resolutions = {
  node16: { module: 'Node16', moduleResolution: 'Node16' },
  bundler: { module: 'Preserve', moduleResolution: 'Bundler' },
  node10: { module: 'ESNext', moduleResolution: 'Node10' },
};
for (const [name, compilerOptions] of Object.entries(resolutions)) {
  writeFileSync(
    join(app, `tsconfig.${name}.json`),
    JSON.stringify({ extends: './tsconfig.json', compilerOptions }, null, 2),
  );
}
const tsc = join(
  dirname(createRequire(join(root, 'package.json')).resolve('typescript/package.json')),
  'bin',
  'tsc',
);
/** One tsc run on the app: whether it passed, its errors, and its own figures (--extendedDiagnostics). */
function typeCheck(extra, project = 'tsconfig.json') {
  const result = sh(process.execPath, [tsc, '-p', project, '--extendedDiagnostics', ...extra], app, {
    allowFailure: true,
  });
  const figure = (name) => new RegExp(`^${name}:\\s+(\\S+)`, 'm').exec(result.stdout)?.[1] ?? '?';
  return {
    ok: result.status === 0,
    errors: result.stdout.split('\n').filter((line) => line.includes('error TS')),
    summary: `total ${figure('Total time')}, check ${figure('Check time')}, ${figure('Memory used')} memory, ${figure('Types')} types, ${figure('Files')} files`,
  };
}
const strict = typeCheck([]);
step(`custom route: tsc strict without skipLibCheck — ${strict.summary}`);
const skipping = typeCheck(['--skipLibCheck']);
step(`custom route: tsc strict with skipLibCheck — ${skipping.summary}`);
check(
  strict.ok,
  `a custom route type-checks strict without skipLibCheck (ctx.engine is the engine), moduleResolution nodenext: ${strict.errors.slice(0, 5).join(' | ') || 'no errors'}`,
);
for (const name of ['node16', 'bundler']) {
  const result = typeCheck([], `tsconfig.${name}.json`);
  step(`custom route: tsc strict without skipLibCheck, moduleResolution ${name} — ${result.summary}`);
  check(
    result.ok,
    `the same app type-checks with moduleResolution ${name}: ${result.errors.slice(0, 5).join(' | ') || 'no errors'}`,
  );
}
const node10 = typeCheck([], 'tsconfig.node10.json');
const node10Counts = new Map();
for (const line of node10.errors) {
  const code = /error (TS\d+)/.exec(line)?.[1] ?? '?';
  node10Counts.set(code, (node10Counts.get(code) ?? 0) + 1);
}
const node10Codes = [...node10Counts].map(([code, count]) => `${code} ×${count}`);
step(
  `custom route, moduleResolution node10 (not supported, documented): ${node10.ok ? 'type-checks' : `${node10Codes.join(', ')}, e.g. ${node10.errors[0]?.replace(/^.*error /, '') ?? '?'}`}`,
);
writeFileSync(
  join(app, 'custom-route.mjs'),
  ts.transpileModule(readFileSync(join(app, 'custom-route.ts'), 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText,
);
const custom = sh(process.execPath, ['custom-route.mjs'], app, { allowFailure: true });
const customOut = custom.stdout + custom.stderr;
check(
  custom.status === 0 && /custom-route 200 \{"count":1,"names":\["Tee"\]\}/.test(customOut),
  `the custom route answers over HTTP, mounted with createNodeListener: ${JSON.stringify(customOut.match(/custom-route .*/)?.[0] ?? customOut.slice(0, 300))}`,
);
check(
  /api-route 200/.test(customOut) && /openapi-lists-custom-route true/.test(customOut),
  'beside it the /v1 API still answers, and the served OpenAPI document lists the custom route',
);
check(
  /custom-provider paid voucher/.test(customOut) && /openapi-lists-custom-provider true/.test(customOut),
  `a payment provider of our own (typed from @cartwright/core/providers) takes a checkout, and the served OpenAPI document lists it: ${JSON.stringify(customOut.match(/custom-provider .*/)?.[0] ?? '')}`,
  'beside it the /v1 API still answers, and the served OpenAPI document lists the custom route',
);

// --- 4. a third party runs the storage conformance suite --------------------------------------
// The README's test files, verbatim, in a folder of the app: what an adapter's author writes.
const conformanceReadme = readFileSync(join(root, 'packages', 'storage-conformance', 'README.md'), 'utf8');
const conformance = join(app, 'conformance');
mkdirSync(conformance);
const conformanceFiles = [];
for (const [, code] of conformanceReadme.matchAll(/```(?:ts|js)\n([\s\S]*?)```/g)) {
  const file = /^\/\/ ([\w.-]+\.(?:ts|js|mjs))\b/.exec(code)?.[1];
  if (!file) continue;
  writeFileSync(join(conformance, file), code);
  conformanceFiles.push(file);
}
const testFiles = conformanceFiles.filter((file) => /\.test\.ts$/.test(file));
check(
  testFiles.length >= 2 && conformanceFiles.length > testFiles.length,
  `packages/storage-conformance/README.md has test files and a worker module: ${conformanceFiles.join(', ')}`,
);
check(
  !existsSync(join(app, 'node_modules', 'tsx')),
  'no TypeScript loader (tsx) in the app: the multi-process worker runs as built JavaScript',
);
const vitestStarted = performance.now();
const vitest = sh(
  join(app, 'node_modules', '.bin', 'vitest'),
  ['run', '--reporter=json', '--outputFile=report.json'],
  conformance,
  { allowFailure: true },
);
const vitestSeconds = ((performance.now() - vitestStarted) / 1000).toFixed(1);
let report;
try {
  report = JSON.parse(readFileSync(join(conformance, 'report.json'), 'utf8'));
} catch {
  report = undefined;
}
const results = (report?.testResults ?? []).flatMap((file) => file.assertionResults ?? []);
const failed = results.filter((test) => test.status !== 'passed');
const multiProcess = results.filter((test) => /OS processes/.test(test.title));
step(
  `conformance: ${results.length} tests in ${testFiles.length} files ran in ${vitestSeconds}s (vitest ${repoVersionOf('node_modules/vitest')}, storage-kysely's SQLite from its tarball)`,
);
for (const file of report?.testResults ?? []) {
  const tests = file.assertionResults ?? [];
  const ms = tests.reduce((sum, test) => sum + (test.duration ?? 0), 0);
  console.log(
    `       ${file.name.replace(`${conformance}/`, '')}: ${tests.length} tests, ${(ms / 1000).toFixed(1)}s of test time`,
  );
}
check(
  vitest.status === 0 && report?.success === true && results.length > 100 && failed.length === 0,
  `the README's conformance test files pass with vitest: ${results.length} tests, ${failed.length} not passed${
    failed.length > 0
      ? ` (${failed
          .slice(0, 3)
          .map((test) => test.fullName)
          .join(' | ')})`
      : ''
  }${report ? '' : ` — ${JSON.stringify((vitest.stdout + vitest.stderr).trim().slice(-600))}`}`,
);
check(
  multiProcess.length === 2 && multiProcess.every((test) => test.status === 'passed'),
  `the multi-process cases ran from the built package and passed: ${multiProcess.map((test) => `${test.title} (${test.status})`).join(' | ') || 'none'}`,
);

if (postgres) {
  const { startPostgres, createTestDatabase, dropTestDatabase } = await import(
    join(root, 'packages', 'storage-conformance', 'src', 'postgres-server.ts')
  );
  const server = await startPostgres();
  const url = await createTestDatabase(server.url);
  try {
    const pgVersion = JSON.parse(
      readFileSync(join(app, 'node_modules', 'pg', 'package.json'), 'utf8'),
    ).version;
    step(`PostgreSQL up; pg ${pgVersion}`);
    const pgExample = example
      .replace(
        "import { sqliteStorage } from '@cartwright/storage-kysely/sqlite';",
        "import { postgresStorage } from '@cartwright/storage-kysely/postgres';",
      )
      .replace(
        "sqliteStorage({ filename: './shop.db' })",
        'postgresStorage({ connectionString: process.env.DATABASE_URL })',
      );
    writeFileSync(
      join(app, 'pg-example.mjs'),
      ts.transpileModule(pgExample, {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      }).outputText,
    );
    const pgRan = sh(process.execPath, ['pg-example.mjs'], app, {
      allowFailure: true,
      env: { DATABASE_URL: url },
    });
    check(
      pgRan.status === 0 && /\{ amount: 5000, currency: 'USD' \}/.test(pgRan.stdout),
      `the same example on PostgreSQL with pg ${pgVersion}: ${JSON.stringify((pgRan.stdout + pgRan.stderr).trim().slice(0, 300))}`,
    );
  } finally {
    await dropTestDatabase(url);
    await server.stop();
  }
}

step(failures.length === 0 ? 'all good' : `${failures.length} failure(s)`);
if (failures.length > 0) process.exit(1);
