import { CommerceError } from '@cartwright/core';
import { describe, expect, it } from 'vitest';
import { decodeJsonBody, isJsonContentType } from './json-body';

const headers = (contentType: string | null) => ({
  get: (name: string) => (name === 'content-type' ? contentType : null),
});

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return CommerceError.is(error) ? error.code : 'not-a-commerce-error';
  }
  return undefined;
}

describe('isJsonContentType', () => {
  it.each([
    ['application/json', true],
    ['application/json; charset=utf-8', true],
    ['APPLICATION/JSON', true],
    ['application/vnd.api+json', true],
    ['text/json', false],
    ['text/plain', false],
    ['application/x-www-form-urlencoded', false],
    [null, false],
  ])('%s → %s', (type, expected) => {
    expect(isJsonContentType(type)).toBe(expected);
  });
});

describe('decodeJsonBody', () => {
  it('empty or whitespace text is {} whatever the content type', () => {
    expect(decodeJsonBody({ kind: 'text', text: '' }, headers(null))).toEqual({});
    expect(decodeJsonBody({ kind: 'text', text: ' \r\n' }, headers('text/plain'))).toEqual({});
  });

  it('parses a JSON object', () => {
    expect(decodeJsonBody({ kind: 'text', text: '{"a":[1]}' }, headers('application/json'))).toEqual({
      a: [1],
    });
  });

  it('non-empty text without a JSON type → unsupported_media_type; bad JSON → invalid_json; non-object → parameter_invalid', () => {
    expect(codeOf(() => decodeJsonBody({ kind: 'text', text: '{}' }, headers(null)))).toBe(
      'unsupported_media_type',
    );
    expect(codeOf(() => decodeJsonBody({ kind: 'text', text: '{' }, headers('application/json')))).toBe(
      'invalid_json',
    );
    expect(codeOf(() => decodeJsonBody({ kind: 'text', text: '"s"' }, headers('application/json')))).toBe(
      'parameter_invalid',
    );
    expect(codeOf(() => decodeJsonBody({ kind: 'text', text: 'null' }, headers('application/json')))).toBe(
      'parameter_invalid',
    );
  });

  it('a body a framework parsed: used when JSON-typed, {} when empty', () => {
    expect(decodeJsonBody({ kind: 'parsed', value: { a: 1 } }, headers('application/json'))).toEqual({
      a: 1,
    });
    expect(
      decodeJsonBody({ kind: 'parsed', value: {} }, headers('application/x-www-form-urlencoded')),
    ).toEqual({});
    expect(
      codeOf(() =>
        decodeJsonBody({ kind: 'parsed', value: { a: '1' } }, headers('application/x-www-form-urlencoded')),
      ),
    ).toBe('unsupported_media_type');
  });
});
