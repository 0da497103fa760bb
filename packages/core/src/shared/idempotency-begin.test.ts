import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type {
  IdempotencyClaim,
  IdempotencyClaimResult,
  IdempotencyRecord,
  IdempotencyRepository,
  Scope,
} from '../ports/storage';
import { beginIdempotentRequest, decideIdempotency, MAX_CLAIM_ROUNDS } from './idempotency-begin';

const record = (over: Partial<IdempotencyRecord> = {}): IdempotencyRecord => ({
  key: 'k',
  caller: 'key_a',
  claim_token: 'held',
  operation: 'POST /v1/x',
  request_hash: 'h1',
  state: 'in_progress',
  response_status: null,
  response_body: null,
  locked_until: 2000,
  created_at: 1000,
  expires_at: 100_000,
  ...over,
});
const attempt = (now: number, request_hash = 'h1', operation = 'POST /v1/x') => ({
  operation,
  request_hash,
  now,
});

describe('decideIdempotency (docs/contract.md#idempotency)', () => {
  it('same request, completed → replay of the stored response', () => {
    const done = record({ state: 'completed', response_status: 201, response_body: '{"id":"o"}' });
    expect(decideIdempotency(done, attempt(5000))).toEqual({
      outcome: 'replay',
      status: 201,
      body: '{"id":"o"}',
    });
  });

  it('another body or another operation → mismatch, completed or not', () => {
    expect(decideIdempotency(record(), attempt(1500, 'h2'))).toEqual({ outcome: 'mismatch' });
    expect(decideIdempotency(record({ state: 'completed' }), attempt(5000, 'h1', 'POST /v1/y'))).toEqual({
      outcome: 'mismatch',
    });
  });

  it('in progress: locked → in_progress; at locked_until the lock has run out → take_over', () => {
    expect(decideIdempotency(record(), attempt(1999))).toEqual({ outcome: 'in_progress' });
    expect(decideIdempotency(record(), attempt(2000))).toEqual({ outcome: 'take_over' });
  });

  it('at expires_at a record is forgotten, whatever it held → take_over', () => {
    const done = record({ state: 'completed', response_status: 200, response_body: '{}' });
    expect(decideIdempotency(done, attempt(99_999, 'other'))).toEqual({ outcome: 'mismatch' });
    expect(decideIdempotency(done, attempt(100_000, 'other'))).toEqual({ outcome: 'take_over' });
  });

  it('a completed record without a stored status replays 200 with an empty body', () => {
    expect(decideIdempotency(record({ state: 'completed' }), attempt(5000))).toEqual({
      outcome: 'replay',
      status: 200,
      body: '',
    });
  });

  it('property: a live record answers the same request with replay or in_progress, never take_over while locked', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<IdempotencyRecord['state']>('in_progress', 'completed'),
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        (state, locked_until, now) => {
          const stored = record({ state, locked_until, expires_at: 20_000 });
          const decision = decideIdempotency(stored, attempt(now));
          if (state === 'completed') return decision.outcome === 'replay';
          return decision.outcome === (locked_until > now ? 'in_progress' : 'take_over');
        },
      ),
    );
  });
});

/** An in-memory key store with the port's claim semantics, and a hook to change it between calls. */
function memoryClaims(initial: IdempotencyRecord | null = null) {
  let stored = initial;
  const calls: Array<{ expected: IdempotencyRecord | null }> = [];
  let interfere: ((round: number) => void) | null = null;
  const same = (a: IdempotencyRecord, b: IdempotencyRecord) =>
    a.claim_token === b.claim_token &&
    a.state === b.state &&
    a.locked_until === b.locked_until &&
    a.expires_at === b.expires_at;
  const repo: Pick<IdempotencyRepository, 'claim'> = {
    async claim(_scope: Scope, claim: IdempotencyClaim, expected): Promise<IdempotencyClaimResult> {
      calls.push({ expected });
      interfere?.(calls.length);
      const holds = expected === null ? stored === null : stored !== null && same(stored, expected);
      if (holds) {
        stored = { ...claim, state: 'in_progress', response_status: null, response_body: null };
        return { claimed: true };
      }
      return { claimed: false, current: stored };
    },
  };
  return {
    repo,
    calls,
    get stored() {
      return stored;
    },
    set stored(value: IdempotencyRecord | null) {
      stored = value;
    },
    interfere(fn: (round: number) => void) {
      interfere = fn;
    },
  };
}

const scope: Scope = { store_id: 'st', mode: 'test' };
const input = (now: number, claim_token = 'mine', request_hash = 'h1') => ({
  key: 'k',
  caller: 'key_a',
  claim_token,
  operation: 'POST /v1/x',
  request_hash,
  now,
  lock_ms: 1000,
  ttl_ms: 100_000,
});

describe('beginIdempotentRequest', () => {
  it('an unknown key is claimed with one insert-if-absent, locked and kept for the TTL', async () => {
    const keys = memoryClaims();
    expect(await beginIdempotentRequest(keys.repo, scope, input(1000))).toEqual({ outcome: 'started' });
    expect(keys.calls).toEqual([{ expected: null }]);
    expect(keys.stored).toMatchObject({
      claim_token: 'mine',
      state: 'in_progress',
      locked_until: 2000,
      created_at: 1000,
      expires_at: 101_000,
    });
  });

  it('a held key answers what the decision says, writing nothing', async () => {
    const keys = memoryClaims(record());
    expect(await beginIdempotentRequest(keys.repo, scope, input(1500))).toEqual({ outcome: 'in_progress' });
    expect(await beginIdempotentRequest(keys.repo, scope, input(1500, 'mine', 'h2'))).toEqual({
      outcome: 'mismatch',
    });
    expect(keys.stored?.claim_token).toBe('held');
  });

  it('a stale key is taken over by a compare-and-set on the record as read', async () => {
    const stale = record();
    const keys = memoryClaims(stale);
    expect(await beginIdempotentRequest(keys.repo, scope, input(2000))).toEqual({ outcome: 'started' });
    expect(keys.calls).toEqual([{ expected: null }, { expected: stale }]);
    expect(keys.stored?.claim_token).toBe('mine');
  });

  it('a take-over that loses to a renewal decides again on what it finds (in_progress)', async () => {
    const keys = memoryClaims(record());
    keys.interfere((call) => {
      // The holder renews its lock between our read and our compare-and-set.
      if (call === 2 && keys.stored) keys.stored = { ...keys.stored, locked_until: 5000 };
    });
    expect(await beginIdempotentRequest(keys.repo, scope, input(2000))).toEqual({ outcome: 'in_progress' });
    expect(keys.stored?.claim_token).toBe('held');
  });

  it('a take-over that loses to the holder completing replays its response', async () => {
    const keys = memoryClaims(record());
    keys.interfere((call) => {
      if (call === 2 && keys.stored) {
        keys.stored = { ...keys.stored, state: 'completed', response_status: 201, response_body: '{"n":1}' };
      }
    });
    expect(await beginIdempotentRequest(keys.repo, scope, input(2000))).toEqual({
      outcome: 'replay',
      status: 201,
      body: '{"n":1}',
    });
  });

  it('a key released between the missed insert and the read is claimed afresh (insert-if-absent again)', async () => {
    const keys = memoryClaims();
    let first = true;
    const repo: Pick<IdempotencyRepository, 'claim'> = {
      async claim(s, claim, expected) {
        if (!first) return keys.repo.claim(s, claim, expected);
        first = false;
        return { claimed: false, current: null };
      },
    };
    expect(await beginIdempotentRequest(repo, scope, input(1500))).toEqual({ outcome: 'started' });
    expect(keys.calls).toEqual([{ expected: null }]);
  });

  it(`a caller that loses every race gives up after ${MAX_CLAIM_ROUNDS} claims with in_progress`, async () => {
    let calls = 0;
    let token = 0;
    const repo: Pick<IdempotencyRepository, 'claim'> = {
      async claim() {
        calls++;
        // Always a stale record, taken over by someone else each time.
        return { claimed: false, current: record({ claim_token: `other_${token++}` }) };
      },
    };
    expect(await beginIdempotentRequest(repo, scope, input(5000))).toEqual({ outcome: 'in_progress' });
    expect(calls).toBe(MAX_CLAIM_ROUNDS);
  });
});
