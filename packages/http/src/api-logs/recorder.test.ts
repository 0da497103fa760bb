import type { ApiLogEntry } from '@cartwright/core';
import { describe, expect, it } from 'vitest';
import { createApiLogRecorder, type FinishedRequest, FLUSH_AT } from './recorder';

function request(overrides: Partial<FinishedRequest> = {}): FinishedRequest {
  return {
    store_id: 'store_1',
    mode: 'test',
    api_key_id: 'key_1',
    method: 'POST',
    path: '/v1/admin/products',
    status_code: 200,
    latency_ms: 3,
    request: { kind: 'text', text: '{"name":"Tee","password":"hunter22"}' },
    response: '{"id":"prod_1","name":"Tee"}',
    ip: '127.0.0.1',
    user_agent: 'test',
    created_at: 1_700_000_000_000,
    ...overrides,
  };
}

/** A sink that keeps what it is given (the engine's `apiLogs` as the recorder sees it). */
function sink(options: { failRecord?: boolean } = {}) {
  const batches: ApiLogEntry[][] = [];
  let prunes = 0;
  return {
    batches,
    prunes: () => prunes,
    logs: {
      async record(entries: readonly ApiLogEntry[]) {
        if (options.failRecord) throw new Error('database down');
        batches.push([...entries]);
      },
      async prune() {
        prunes++;
        return 0;
      },
    },
  };
}

describe('the API-log recorder', () => {
  it('off, or an engine without API logs: no recorder', () => {
    expect(createApiLogRecorder(sink().logs, { mode: 'off', onError: () => {} })).toBeNull();
    expect(createApiLogRecorder(undefined, { mode: 'writes', onError: () => {} })).toBeNull();
  });

  it('keeps what the mode logs, and writes it redacted in one batch on flush', async () => {
    const s = sink();
    const recorder = createApiLogRecorder(s.logs, { mode: 'writes', onError: () => {} });
    recorder?.add(request());
    recorder?.add(request({ method: 'GET', status_code: 200, request: undefined }));
    recorder?.add(request({ method: 'GET', status_code: 404, request: undefined, response: null }));
    await recorder?.flush();
    expect(s.batches).toHaveLength(1);
    expect(s.batches[0]?.map((e) => [e.method, e.status_code])).toEqual([
      ['POST', 200],
      ['GET', 404],
    ]);
    expect(JSON.parse(s.batches[0]?.[0]?.request_body as string)).toEqual({
      name: 'Tee',
      password: '[REDACTED]',
    });
    expect(s.batches[0]?.[0]?.response_body).toBe('{"id":"prod_1","name":"Tee"}');
    expect(s.batches[0]?.[1]).toMatchObject({ request_body: null, response_body: null });
  });

  it('a failing write is reported, dropped, and never thrown; later writes go on', async () => {
    const errors: unknown[] = [];
    const s = sink({ failRecord: true });
    const recorder = createApiLogRecorder(s.logs, { mode: 'all', onError: (e) => errors.push(e) });
    recorder?.add(request());
    await expect(recorder?.flush()).resolves.toBeUndefined();
    expect(errors).toEqual([new Error('database down')]);
  });

  it('flushes at once when FLUSH_AT wait; by its timer otherwise', async () => {
    const s = sink();
    const recorder = createApiLogRecorder(s.logs, { mode: 'all', flushIntervalMs: 20, onError: () => {} });
    for (let i = 0; i < FLUSH_AT; i++) recorder?.add(request());
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(s.batches.map((b) => b.length)).toEqual([FLUSH_AT]);
    recorder?.add(request());
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(s.batches.map((b) => b.length)).toEqual([FLUSH_AT, 1]);
  });

  it('prunes on its first flush, then not again within the interval', async () => {
    const s = sink();
    const recorder = createApiLogRecorder(s.logs, { mode: 'all', onError: () => {} });
    await recorder?.flush();
    await recorder?.flush();
    expect(s.prunes()).toBe(1);
  });

  it('close writes what waits, then logs nothing more', async () => {
    const s = sink();
    const recorder = createApiLogRecorder(s.logs, { mode: 'all', onError: () => {} });
    recorder?.add(request());
    await recorder?.close();
    recorder?.add(request());
    await recorder?.flush();
    expect(s.batches.map((b) => b.length)).toEqual([1]);
  });

  it('cuts a long path and user agent', async () => {
    const s = sink();
    const recorder = createApiLogRecorder(s.logs, { mode: 'all', onError: () => {} });
    recorder?.add(request({ path: `/v1/${'a'.repeat(5000)}`, user_agent: 'u'.repeat(1000) }));
    await recorder?.flush();
    expect(s.batches[0]?.[0]?.path).toHaveLength(2048);
    expect(s.batches[0]?.[0]?.user_agent).toHaveLength(512);
  });
});
