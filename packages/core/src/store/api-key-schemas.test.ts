import { describe, expect, test } from 'vitest';
import { parseInput } from '../shared/schemas/parse';
import { expectRejected } from '../shared/schemas/test-helpers';
import { ApiKeyCreateSchema } from './api-key-schemas';

describe('ApiKeyCreate (decisions §8)', () => {
  test('name, key_type, mode; expires_at optional → epoch ms', () => {
    expect(
      parseInput(ApiKeyCreateSchema, {
        name: 'CI',
        key_type: 'secret',
        mode: 'test',
        expires_at: '2030-01-01T00:00:00Z',
      }),
    ).toEqual({ name: 'CI', key_type: 'secret', mode: 'test', expires_at: Date.UTC(2030, 0, 1) });
  });

  test('required fields and enums', () => {
    expectRejected(ApiKeyCreateSchema, { key_type: 'secret', mode: 'test' }, 'parameter_missing', 'name');
    expectRejected(
      ApiKeyCreateSchema,
      { name: 'x', key_type: 'admin', mode: 'test' },
      'parameter_invalid',
      'key_type',
    );
    expectRejected(
      ApiKeyCreateSchema,
      { name: 'x', key_type: 'secret', mode: 'prod' },
      'parameter_invalid',
      'mode',
    );
    expectRejected(
      ApiKeyCreateSchema,
      { name: 'x', key_type: 'secret', mode: 'live', key: 'sk_live_x' },
      'parameter_unknown',
      'key',
    );
  });
});
