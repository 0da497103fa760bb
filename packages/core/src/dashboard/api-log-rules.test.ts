import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isSecretField,
  loggedBody,
  loggedBodyOfText,
  loggedJsonText,
  MAX_LOGGED_BODY_BYTES,
  REDACTED,
  redactSecrets,
  redactText,
  shouldLogRequest,
} from './api-log-rules';

const SECRET_KEY = 'sk_test_abcdefghijklmnopqrstuvwx';
const LIVE_PUBLISHABLE = 'pk_live_ABCDEFGHIJKLMNOPQRSTUVWX';

describe('which requests are logged (COMMERCE_API_LOGS)', () => {
  it('writes: every non-GET request and every 4xx/5xx', () => {
    expect(shouldLogRequest('writes', 'POST', 201)).toBe(true);
    expect(shouldLogRequest('writes', 'PATCH', 200)).toBe(true);
    expect(shouldLogRequest('writes', 'DELETE', 200)).toBe(true);
    expect(shouldLogRequest('writes', 'POST', 400)).toBe(true);
    expect(shouldLogRequest('writes', 'GET', 200)).toBe(false);
    expect(shouldLogRequest('writes', 'HEAD', 200)).toBe(false);
    expect(shouldLogRequest('writes', 'GET', 304)).toBe(false);
    expect(shouldLogRequest('writes', 'GET', 404)).toBe(true);
    expect(shouldLogRequest('writes', 'GET', 500)).toBe(true);
  });

  it('all logs everything; off nothing', () => {
    for (const [method, status] of [
      ['GET', 200],
      ['POST', 201],
      ['GET', 404],
    ] as const) {
      expect(shouldLogRequest('all', method, status)).toBe(true);
      expect(shouldLogRequest('off', method, status)).toBe(false);
    }
  });
});

describe('redaction', () => {
  it('names secret fields: password, *_password, token, *_token, secret, *_secret, payment_method_id', () => {
    for (const name of [
      'password',
      'new_password',
      'current_password',
      'Password',
      'token',
      'reset_token',
      'secret',
      'client_secret',
      'payment_method_id',
    ]) {
      expect(isSecretField(name), name).toBe(true);
    }
    for (const name of [
      'email',
      'passwords_count',
      'token_type',
      'secretary',
      'payment_method',
      'key_prefix',
    ]) {
      expect(isSecretField(name), name).toBe(false);
    }
  });

  it('redacts secret fields at any depth and masks raw keys anywhere in strings', () => {
    const body = {
      email: 'ada@example.com',
      password: 'hunter22',
      payment_method_id: 'pm_card_visa',
      empty_token: null,
      nested: { customer: { new_password: 'x', note: `key ${SECRET_KEY} leaked` } },
      lines: [{ client_secret: 'pi_1_secret_2' }, LIVE_PUBLISHABLE],
      metadata: { amount: 3, ok: true },
    };
    const copy = structuredClone(body);
    expect(redactSecrets(body)).toEqual({
      email: 'ada@example.com',
      password: REDACTED,
      payment_method_id: REDACTED,
      empty_token: null,
      nested: { customer: { new_password: REDACTED, note: 'key sk_test_abcd**** leaked' } },
      lines: [{ client_secret: REDACTED }, 'pk_live_ABCD****'],
      metadata: { amount: 3, ok: true },
    });
    expect(body).toEqual(copy);
  });

  it('masks every credential shape and leaves look-alikes alone', () => {
    expect(redactText(`Bearer ${SECRET_KEY}`)).toBe('Bearer sk_test_abcd****');
    expect(redactText('whsec_AAAAAAAAAAAAAAAAAAAAAAAA')).toBe('whsec_AAAAAA****');
    expect(redactText('ct_abcdefghijklmnopqrstuv and prt_abcdefghijklmnopqrstuv')).toBe(
      'ct_abcdefghi**** and prt_abcdefgh****',
    );
    expect(redactText('sk_test_short')).toBe('sk_test_short');
    expect(redactText('plain text')).toBe('plain text');
  });

  it('keeps a __proto__ key a key', () => {
    const body = JSON.parse('{"__proto__":{"password":"x"}}');
    const out = redactSecrets(body) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });

  it('never leaves a raw key in the stored text (property)', () => {
    const key = fc
      .tuple(
        fc.constantFrom('sk', 'pk'),
        fc.constantFrom('test', 'live'),
        fc.stringMatching(/^[A-Za-z0-9]{24,32}$/),
      )
      .map(([kind, mode, rest]) => `${kind}_${mode}_${rest}`);
    fc.assert(
      fc.property(
        fc.string(),
        key,
        fc.string(),
        fc.string({ minLength: 1, maxLength: 8 }),
        (before, raw, after, field) => {
          const stored = JSON.stringify(loggedBody({ [field]: `${before} ${raw} ${after}` }));
          expect(stored.includes(raw)).toBe(false);
        },
      ),
    );
  });
});

describe('stored bodies', () => {
  it('keeps a small JSON object as it is (redacted)', () => {
    expect(loggedBody({ name: 'Tee', token: 'abc' })).toEqual({ name: 'Tee', token: REDACTED });
  });

  it('stores anything but an object as null', () => {
    expect(loggedBody(null)).toBeNull();
    expect(loggedBody([1, 2])).toBeNull();
    expect(loggedBody('text')).toBeNull();
    expect(loggedBodyOfText(null)).toBeNull();
    expect(loggedBodyOfText('openapi: 3.1.0')).toBeNull();
    expect(loggedBodyOfText('{not json')).toBeNull();
    expect(loggedBodyOfText('{"a":1}')).toEqual({ a: 1 });
  });

  it('cuts a body over 8 KB and marks it, within 8 KB, secrets redacted first', () => {
    const big = {
      password: 'p'.repeat(50),
      items: Array.from({ length: 2000 }, (_, i) => `item-${i}-"quoted"`),
    };
    const stored = loggedBody(big) as Record<string, unknown>;
    expect(stored._truncated).toBe(true);
    expect(stored._bytes).toBe(Buffer.byteLength(JSON.stringify(redactSecrets(big))));
    expect(typeof stored._preview).toBe('string');
    expect(stored._preview as string).toMatch(/^\{"password":"\[REDACTED\]","items":\["item-0-\\"quoted\\""/);
    expect(JSON.stringify(stored).includes('ppppp')).toBe(false);
    const size = Buffer.byteLength(JSON.stringify(stored));
    expect(size).toBeLessThanOrEqual(MAX_LOGGED_BODY_BYTES);
    expect(size).toBeGreaterThan(MAX_LOGGED_BODY_BYTES - 80);
  });

  it('keeps a body of exactly 8 KB whole; one byte more is cut', () => {
    const frame = JSON.stringify({ a: '' }).length;
    const exact = { a: 'x'.repeat(MAX_LOGGED_BODY_BYTES - frame) };
    expect(loggedBody(exact)).toEqual(exact);
    const over = { a: 'x'.repeat(MAX_LOGGED_BODY_BYTES - frame + 1) };
    expect(loggedBody(over)).toMatchObject({ _truncated: true, _bytes: MAX_LOGGED_BODY_BYTES + 1 });
  });

  it('measures multi-byte text in UTF-8 bytes: 8 KB of 3- and 4-byte characters is kept, one byte more is cut', () => {
    const frame = JSON.stringify({ a: '' }).length;
    // 2 + 3 + 4 bytes per round (é, €, 😀).
    const round = 'é€😀';
    const rounds = Math.floor((MAX_LOGGED_BODY_BYTES - frame - 1) / 9);
    const fill = 'x'.repeat(MAX_LOGGED_BODY_BYTES - frame - rounds * 9);
    const exact = JSON.stringify({ a: round.repeat(rounds) + fill });
    expect(Buffer.byteLength(exact)).toBe(MAX_LOGGED_BODY_BYTES);
    expect(loggedJsonText(exact, true)).toBe(exact);
    expect(loggedJsonText(exact, false)).toBe(exact);
    const over = JSON.stringify({ a: `${round.repeat(rounds)}é${fill.slice(1)}` });
    expect(Buffer.byteLength(over)).toBe(MAX_LOGGED_BODY_BYTES + 1);
    expect(JSON.parse(loggedJsonText(over, true) as string)).toMatchObject({
      _truncated: true,
      _bytes: MAX_LOGGED_BODY_BYTES + 1,
    });
  });

  it('stays within 8 KB for any text, multi-byte and escapes included (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 2000, maxLength: 6000 }), (text) => {
        const stored = loggedBody({ text, again: text });
        expect(Buffer.byteLength(JSON.stringify(stored))).toBeLessThanOrEqual(MAX_LOGGED_BODY_BYTES);
        const preview = (stored as Record<string, unknown>)._preview;
        if (typeof preview === 'string')
          expect(JSON.stringify({ text, again: text }).startsWith(preview)).toBe(true);
      }),
      { numRuns: 50 },
    );
  });
});

describe('stored JSON text', () => {
  it('a response with nothing to redact is stored as the very text; one with a secret, redacted', () => {
    const text = JSON.stringify({ id: 'prod_1', product_id: 'prod_1', name: 'Tee' });
    expect(loggedJsonText(text, true)).toBe(text);
    const token = JSON.stringify({ token: 'ct_abcdefghijklmnopqrstuv', customer_id: 'cus_1' });
    expect(JSON.parse(loggedJsonText(token, true) as string)).toEqual({
      token: REDACTED,
      customer_id: 'cus_1',
    });
    const key = JSON.stringify({ id: 'key_1', key: SECRET_KEY });
    expect(JSON.parse(loggedJsonText(key, true) as string)).toEqual({ id: 'key_1', key: 'sk_test_abcd****' });
    expect(loggedJsonText('openapi: 3.1.0', true)).toBeNull();
    expect(loggedJsonText(null, true)).toBeNull();
  });

  it('a request text is checked: not JSON, or not an object → null; valid and clean → kept as sent', () => {
    expect(loggedJsonText('{"a":', false)).toBeNull();
    expect(loggedJsonText('[1]', false)).toBeNull();
    expect(loggedJsonText('{ "name": "Tee" }', false)).toBe('{ "name": "Tee" }');
    expect(JSON.parse(loggedJsonText('{ "password": "x" }', false) as string)).toEqual({
      password: REDACTED,
    });
  });

  it('over 8 KB: cut and marked, as JSON text within the limit', () => {
    const text = JSON.stringify({ items: Array.from({ length: 3000 }, (_, i) => i) });
    const stored = loggedJsonText(text, true) as string;
    expect(Buffer.byteLength(stored)).toBeLessThanOrEqual(MAX_LOGGED_BODY_BYTES);
    expect(JSON.parse(stored)).toMatchObject({ _truncated: true, _bytes: Buffer.byteLength(text) });
  });
});
