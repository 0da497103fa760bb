import { describe, expect, test } from 'vitest';
import { maskSecret, replayOf } from './replay-secrets';

describe('replayOf: the stored replay of a response holds no secret', () => {
  const secrets = [
    'sk_test_AbCdEfGhIjKlMnOpQrStUvWx',
    'pk_live_AbCdEfGhIjKlMnOpQrStUvWx',
    'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw+bZ0ST4A6R0=',
    'ct_4mXn0VbqLr8Jc0P1Qk2ZsA9Y',
    'prt_4mXn0VbqLr8Jc0P1Qk2ZsA9Y',
  ];

  test.each(secrets)('%s is stored as its first 12 characters + ****, at any depth', (secret) => {
    const body = JSON.stringify({ id: 'x_1', secret, nested: { list: [secret, 'plain'] } });
    const stored = replayOf({ status: 200, body });
    expect(stored.status).toBe(200);
    expect(stored.body).not.toContain(secret);
    expect(JSON.parse(stored.body)).toEqual({
      id: 'x_1',
      secret: `${secret.slice(0, 12)}****`,
      nested: { list: [`${secret.slice(0, 12)}****`, 'plain'] },
    });
    expect(maskSecret(secret)).toBe(`${secret.slice(0, 12)}****`);
  });

  test('a body without a secret is kept as it is (the same text); ids and short look-alikes are not secrets', () => {
    const response = { status: 201, body: '{"id":"cus_1","token":"ct_short","key_prefix":"sk_test_AbCd"}' };
    expect(replayOf(response)).toBe(response);
    const plain = { status: 200, body: '{"id":"ord_1"}' };
    expect(replayOf(plain)).toBe(plain);
  });

  test('keys such as __proto__ stay keys', () => {
    const body = '{"__proto__":{"a":1},"token":"ct_4mXn0VbqLr8Jc0P1Qk2ZsA9Y"}';
    expect(replayOf({ status: 200, body }).body).toBe('{"__proto__":{"a":1},"token":"ct_4mXn0VbqL****"}');
  });
});
