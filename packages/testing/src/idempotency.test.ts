import { CommerceError, type Scope } from '@cartwright/core';
import { engineInternals, write } from '@cartwright/core/internal';
import { afterEach, describe, expect, test } from 'vitest';
import { createTestEngine, type TestEngine } from './create-test-engine';

/**
 * `Idempotency-Key` (docs/contract.md#idempotency) at engine level: the idempotency service runs a
 * request under a claim as the HTTP pipeline does — the handler gets the request's scope, which
 * carries the claim, and calls the in-process API with it — so the response is stored with the effect,
 * replayed for the same body, refused for another body, forgotten after 24 h, and never stored
 * for an unexpected failure.
 */

let t: TestEngine | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

type Stored = { status: number; body: string };

/** Renders an outcome as the pipeline does: values 200, domain errors 4xx, anything else unstored. */
function render(outcome: { value: unknown } | { error: unknown }): Stored | null {
  if ('value' in outcome) return { status: 200, body: JSON.stringify(outcome.value) };
  if (CommerceError.is(outcome.error))
    return { status: 400, body: JSON.stringify({ code: outcome.error.code }) };
  return null;
}

function runner(e: TestEngine) {
  const service = engineInternals(e.engine).idempotency;
  return (
    key: string,
    bodyHash: string,
    handler: (scope: Scope) => Promise<unknown>,
    customer_id: string | null = null,
  ) =>
    service.run(
      {
        scope: e.scope,
        caller: { key_id: 'key_test', customer_id },
        key,
        request: 'POST /v1/admin/products',
        bodyHash,
      },
      async (scope) => {
        let value: unknown;
        try {
          value = await handler(scope);
        } catch (error) {
          const response = render({ error });
          if (response === null) throw error;
          return response;
        }
        return render({ value }) as Stored;
      },
      render,
    );
}

/** A gate the first request waits at: `started` resolves once it is inside its handler (it holds the claim). */
function gated() {
  let release!: () => void;
  let entered!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const started = new Promise<void>((resolve) => {
    entered = resolve;
  });
  return {
    release,
    started,
    async pass() {
      entered();
      await gate;
    },
  };
}

async function productCount(e: TestEngine) {
  return (await e.store.products.list()).total_count;
}

describe('idempotency service', () => {
  test('the same key and body replay the stored response: one effect', async () => {
    t = await createTestEngine();
    const run = runner(t);
    const create = (scope: Scope) =>
      t!.engine.forStore(scope).products.create({ name: 'Mug', variants: [{ price: 900 }] });
    const first = await run('k1', 'h1', create);
    expect(first.status).toBe(200);
    expect(first.replayed).toBeUndefined();
    expect(first.committed).toEqual({ status: first.status, body: first.body });
    const again = await run('k1', 'h1', create);
    expect(again).toMatchObject({ status: 200, body: first.body, replayed: true });
    expect(await productCount(t)).toBe(1);
    // Another caller (a customer of the same key) has keys of its own.
    const other = await run(
      'k1',
      'h1',
      (scope) => t!.engine.forStore(scope).products.create({ name: 'Cup', variants: [{ price: 1 }] }),
      'cus_1',
    );
    expect(other.replayed).toBeUndefined();
    expect(await productCount(t)).toBe(2);
  });

  test('the same key with another body is 409 idempotency_key_reused; an empty or too long key is parameter_invalid', async () => {
    t = await createTestEngine();
    const run = runner(t);
    await run('k2', 'h1', async () => ({ ok: 1 }));
    const reused = await run('k2', 'h2', async () => ({ ok: 2 })).catch((e: unknown) => e);
    expect(CommerceError.is(reused) && reused.code).toBe('idempotency_key_reused');
    for (const key of ['', 'x'.repeat(256)]) {
      const error = await run(key, 'h', async () => ({})).catch((e: unknown) => e);
      expect(CommerceError.is(error) && [error.code, error.param]).toEqual([
        'parameter_invalid',
        'Idempotency-Key',
      ]);
    }
    expect((await run('x'.repeat(255), 'h', async () => ({ ok: 3 }))).status).toBe(200);
  });

  test('a domain error is stored and replayed; an unexpected error and a 5xx are not (the retry runs again)', async () => {
    t = await createTestEngine();
    const run = runner(t);
    let calls = 0;
    const duplicate = async (scope: Scope) => {
      calls++;
      return t!.engine.forStore(scope).products.create({ name: '' });
    };
    const refused = await run('k3', 'h', duplicate);
    expect(refused).toMatchObject({ status: 400, body: JSON.stringify({ code: 'parameter_invalid' }) });
    expect((await run('k3', 'h', duplicate)).replayed).toBe(true);
    expect(calls).toBe(1);

    let attempts = 0;
    const flaky = async () => {
      attempts++;
      if (attempts === 1) throw new Error('database went away');
      return { attempt: attempts };
    };
    await expect(run('k4', 'h', flaky)).rejects.toThrow('database went away');
    expect(await run('k4', 'h', flaky)).toMatchObject({ status: 200, body: JSON.stringify({ attempt: 2 }) });

    const service = engineInternals(t.engine).idempotency;
    let served = 0;
    const request = {
      scope: t.scope,
      caller: { key_id: 'key_test', customer_id: null },
      key: 'k5',
      request: 'POST /x',
      bodyHash: 'h',
    };
    const fiveHundred = async () => {
      served++;
      return { status: 503, body: '{}' };
    };
    expect((await service.run(request, fiveHundred, render)).status).toBe(503);
    expect((await service.run(request, fiveHundred, render)).status).toBe(503);
    expect(served).toBe(2);
  });

  test('a key is forgotten after 24 h: the same key with another body runs as new', async () => {
    t = await createTestEngine();
    const run = runner(t);
    await run('k6', 'h1', async () => ({ first: true }));
    t.clock.advance('25h');
    const later = await run('k6', 'h2', async () => ({ second: true }));
    expect(later).toMatchObject({ status: 200, body: JSON.stringify({ second: true }) });
    expect(later.replayed).toBeUndefined();
  });

  test('a concurrent request with the key waits for the first and replays its response', async () => {
    t = await createTestEngine({ now: Date.now() });
    const run = runner(t);
    const first$ = gated();
    let effects = 0;
    const slow = async (scope: Scope) => {
      await first$.pass();
      effects++;
      return t!.engine.forStore(scope).products.create({ name: 'Slow', variants: [{ price: 100 }] });
    };
    const first = run('k7', 'h', slow);
    await first$.started;
    const second = run('k7', 'h', slow);
    await new Promise((r) => setTimeout(r, 30));
    first$.release();
    const [a, b] = await Promise.all([first, second]);
    expect(effects).toBe(1);
    expect(b).toMatchObject({ status: a.status, body: a.body, replayed: true });
    expect(await productCount(t)).toBe(1);
  });

  test('a concurrent request past the lock time is 409 idempotency_key_in_use', async () => {
    // The fake clock stands in 2025: the lock time (30 s of it) is already over by the wall clock.
    t = await createTestEngine();
    const run = runner(t);
    const first$ = gated();
    const first = run('k8', 'h', async () => {
      await first$.pass();
      return { done: true };
    });
    await first$.started;
    const second = await run('k8', 'h', async () => ({ done: 'twice' })).catch((e: unknown) => e);
    first$.release();
    expect((await first).body).toBe(JSON.stringify({ done: true }));
    expect(CommerceError.is(second) && second.code).toBe('idempotency_key_in_use');
  });

  test('a claim whose lock expired is taken over: the first request commits nothing (idempotency_key_in_use)', async () => {
    t = await createTestEngine({ now: Date.now(), config: { idempotency_lock_ms: 0 } });
    const run = runner(t);
    const first$ = gated();
    const first = run('k9', 'h', async (scope) => {
      await first$.pass();
      return t!.engine.forStore(scope).products.create({ name: 'First', variants: [{ price: 100 }] });
    });
    await first$.started;
    const second = await run('k9', 'h', (scope) =>
      t!.engine.forStore(scope).products.create({ name: 'Second', variants: [{ price: 100 }] }),
    );
    first$.release();
    const lost = await first;
    expect(lost).toMatchObject({ status: 400, body: JSON.stringify({ code: 'idempotency_key_in_use' }) });
    expect(second.status).toBe(200);
    expect((await t.store.products.list()).data.map((p) => p.name)).toEqual(['Second']);
  });

  test('the claim travels on the scope the request is given, not in ambient state: a fresh { store_id, mode } carries none', async () => {
    t = await createTestEngine();
    const run = runner(t);
    const given = await run('k10', 'h', (scope) =>
      t!.engine.forStore(scope).products.create({ name: 'Given', variants: [{ price: 100 }] }),
    );
    expect(given.committed).toEqual({ status: 200, body: given.body });
    const fresh = await run('k11', 'h', (scope) =>
      t!.engine
        .forStore({ store_id: scope.store_id, mode: scope.mode })
        .products.create({ name: 'Fresh', variants: [{ price: 100 }] }),
    );
    // Its effect committed without the response; the response was stored after it.
    expect(fresh.status).toBe(200);
    expect(fresh.committed).toBeNull();
    expect((await run('k11', 'h', async () => ({}))).body).toBe(fresh.body);
  });

  test('a write nested in a write of the request joins it and stores nothing; the outer write stores the answer', async () => {
    t = await createTestEngine();
    const run = runner(t);
    const ctx = engineInternals(t.engine).context;
    const result = await run('k12', 'h', (scope) =>
      write(ctx, scope, async () => {
        const inner = await write(ctx, scope, async () => ({ inner: true }));
        return { outer: inner.inner };
      }),
    );
    expect(result).toMatchObject({ status: 200, body: JSON.stringify({ outer: true }) });
    expect(result.committed).toEqual({ status: 200, body: JSON.stringify({ outer: true }) });
    // The outer write fails after the nested one: nothing committed, so no response was stored
    // with an effect (a nested write that stored its own would claim one that rolled back).
    const failed = await run('k13', 'h', (scope) =>
      write(ctx, scope, async () => {
        await write(ctx, scope, async () => ({ inner: true }));
        throw new CommerceError('parameter_invalid', 'refused after the nested write');
      }),
    );
    expect(failed).toMatchObject({ status: 400, body: JSON.stringify({ code: 'parameter_invalid' }) });
    expect(failed.committed).toBeNull();
  });
});
