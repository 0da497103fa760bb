#!/usr/bin/env node
// A newcomer's app, outside the repository: installs the packed tarballs with npm from a fresh
// directory in the system temp folder and runs what the READMEs promise. Run after `pnpm build`
// (`pnpm check:packages` runs it on the tarballs it checked).
//
//   1. core + storage-kysely alone, no driver: sqliteStorage() fails with the one-line error
//      naming better-sqlite3 (and postgresStorage() naming pg).
//   2. every tarball plus better-sqlite3 from the registry: the "Example" of
//      packages/core/README.md, verbatim (types stripped), creates a product and checks out;
//      the HTTP handler answers /v1/openapi.json; @cartwright/testing's createTestEngine()
//      checks out with the fake card; the `cartwright` bin migrates a SQLite file.
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
  for (const name of readdirSync(join(root, 'packages'))) {
    const pkg = JSON.parse(readFileSync(join(root, 'packages', name, 'package.json'), 'utf8'));
    if (pkg.private) continue;
    execFileSync('pnpm', ['pack', '--pack-destination', tarballDir], {
      cwd: join(root, 'packages', name),
      stdio: 'ignore',
    });
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
const names = ['core', 'storage-kysely', 'http', 'testing', 'webhooks', 'payments-stripe', 'cli'];
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
