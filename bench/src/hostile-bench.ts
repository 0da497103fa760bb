/**
 * Hostile clients against `cartwright serve` (issue 37): the server's RSS while 300 uploads
 * stall, other clients' latency while 4 clients send a 90,000-key body over and over, and the
 * cost of compressing the storefront's product list. Runs the CLI from its TypeScript sources on
 * a fresh SQLite file, rate limits off; under 2 minutes. Not part of `pnpm test`:
 *
 *   node --conditions=@cartwright/source --import tsx bench/src/hostile-bench.ts
 *
 * "Before" figures are those measured in issue 37 on the previous release (same load).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';

const CLI_DIR = resolve(import.meta.dirname, '../../packages/cli');
const SECRET = 'sk_test_hostileBench00000000000000000001';
const PUBLISHABLE = 'pk_test_hostileBench00000000000000000001';

async function startServer(dir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    ['--conditions=@cartwright/source', '--import', 'tsx', 'src/bin.ts', 'serve', '--no-worker'],
    {
      cwd: CLI_DIR,
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: join(dir, 'shop.db'),
        COMMERCE_API_KEYS: `${SECRET},${PUBLISHABLE}`,
        COMMERCE_RATE_LIMITS: 'off',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  const url = await new Promise<string>((ok, fail) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const found = out.match(/listening on (http:\/\/\S+)/)?.[1];
      if (found) ok(found);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => fail(new Error(`serve exited with ${code}:\n${out}`)));
  });
  return { child, url };
}

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
  return Math.round(Number(line?.[1] ?? 0) / 1024);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; bytes: number }> {
  return new Promise((ok, fail) => {
    const req = httpRequest(url, { method, headers, agent: false }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      res.on('end', () => ok({ status: res.statusCode ?? 0, bytes }));
    });
    req.on('error', fail);
    req.end(body);
  });
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};

async function stalledUploads(url: string, pid: number): Promise<void> {
  const { hostname, port } = new URL(url);
  const before = rssMb(pid);
  const chunk = `{"metadata":{"a":"${'x'.repeat(1_000_000)}`;
  const sockets: Socket[] = [];
  let refused = 0;
  for (let i = 0; i < 300; i++) {
    const socket = connect(Number(port), hostname);
    socket.on('error', () => undefined);
    socket.on('data', (data) => {
      if (/^HTTP\/1\.1 (429|408)/.test(data.toString())) refused += 1;
    });
    socket.write(
      `POST /v1/storefront/carts HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${PUBLISHABLE}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 1040000\r\n\r\n',
    );
    socket.write(chunk);
    sockets.push(socket);
  }
  await sleep(8_000);
  const held = sockets.filter((s) => !s.destroyed && !s.readableEnded).length;
  const during = rssMb(pid);
  console.log(
    `stalled uploads (300 × 1,000,000 of 1,040,000 bytes): RSS ${before} → ${during} MB; ` +
      `${refused} refused at once (429), ${held} connections still open after 8 s`,
  );
  console.log('  before (issue 37): RSS 126 → 387 MB, each held 318 s');
  for (const socket of sockets) socket.destroy();
  await sleep(1_000);
}

async function floodLatency(url: string): Promise<void> {
  const body: Record<string, number> = {};
  for (let i = 0; i < 90_000; i++) body[`k${i}`] = 1;
  const text = JSON.stringify(body);
  const headers = { authorization: `Bearer ${PUBLISHABLE}`, 'content-type': 'application/json' };
  let one = { status: 0, bytes: 0 };
  const each: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    one = await send(`${url}/v1/storefront/carts`, 'POST', headers, text);
    each.push(performance.now() - started);
  }
  console.log(`one 90,000-key body alone: median ${quantile(each, 0.5).toFixed(0)} ms round trip`);
  console.log(
    `90,000-key body (${(text.length / 1e6).toFixed(2)} MB): ${one.status}, answer ${one.bytes} bytes (before: 5.9 MB)`,
  );
  const probe = async (ms: number) => {
    const times: number[] = [];
    const until = Date.now() + ms;
    while (Date.now() < until) {
      const started = performance.now();
      await send(`${url}/v1/storefront/products?limit=10`, 'GET', { authorization: `Bearer ${PUBLISHABLE}` });
      times.push(performance.now() - started);
    }
    return times;
  };
  const quiet = await probe(3_000);
  let flooding = true;
  let floods = 0;
  const flooders = Array.from({ length: 4 }, async () => {
    while (flooding) {
      await send(`${url}/v1/storefront/carts`, 'POST', headers, text);
      floods += 1;
    }
  });
  const loaded = await probe(8_000);
  flooding = false;
  await Promise.all(flooders);
  const fmt = (t: number[]) =>
    `median ${quantile(t, 0.5).toFixed(1)} ms, p95 ${quantile(t, 0.95).toFixed(1)} ms`;
  console.log(
    `other clients' latency: alone ${fmt(quiet)}; with 4 clients sending it (${floods} sent in 8 s) ${fmt(loaded)}`,
  );
  console.log('  before (issue 37): ~1 s of server time per such body; others at 1.3 s with 4 such clients');
}

async function compressionCost(url: string): Promise<void> {
  for (let i = 0; i < 40; i++) {
    const product = {
      name: `Bench product ${i} ${'with a longer name '.repeat(3)}`,
      slug: `bench-product-${i}`,
      status: 'active',
      type: 'physical',
      description: 'A product of the hostile bench. '.repeat(10),
      variants: [{ sku: `HB-${i}`, price: 1000 + i }],
    };
    await send(
      `${url}/v1/admin/products`,
      'POST',
      { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' },
      JSON.stringify(product),
    );
  }
  const path = `${url}/v1/storefront/products?limit=20`;
  const sizes: string[] = [];
  for (const encoding of ['identity', 'gzip', 'br']) {
    const res = await send(path, 'GET', {
      authorization: `Bearer ${PUBLISHABLE}`,
      'accept-encoding': encoding,
    });
    sizes.push(`${encoding} ${res.bytes} B`);
  }
  const run = async (encoding: string) => {
    const result = await autocannon({
      url: path,
      connections: 10,
      duration: 6,
      headers: { authorization: `Bearer ${PUBLISHABLE}`, 'accept-encoding': encoding },
    });
    return result.requests.average;
  };
  await run('identity'); // warm-up
  const plain = await run('identity');
  const gzip = await run('gzip');
  const br = await run('br');
  const pct = (v: number) => `${(((v - plain) / plain) * 100).toFixed(1)} %`;
  console.log(
    `storefront list (20 products; ${sizes.join(', ')}): ${plain.toFixed(0)} req/s plain, ` +
      `${gzip.toFixed(0)} gzip (${pct(gzip)}), ${br.toFixed(0)} br (${pct(br)})`,
  );
}

const dir = mkdtempSync(join(tmpdir(), 'cartwright-hostile-bench-'));
const { child, url } = await startServer(dir);
try {
  console.log(`cartwright serve (SQLite, pid ${child.pid}) at ${url}`);
  await stalledUploads(url, child.pid as number);
  await floodLatency(url);
  await compressionCost(url);
} finally {
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  rmSync(dir, { recursive: true, force: true });
}
