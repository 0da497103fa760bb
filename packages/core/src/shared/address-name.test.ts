import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { missingAddressNameField, resolveAddressName } from './address-name';

const text = fc.string({ minLength: 1, maxLength: 30 });
/** A name field as a request may carry it: absent, `null` (not given) or a value. */
const field = fc.oneof(fc.constant(undefined), fc.constant(null), text);

describe('the name of an address (decisions §22)', () => {
  test('name alone: that name, parts null', () => {
    expect(resolveAddressName({ name: 'Ada Lovelace' })).toEqual({
      ok: true,
      value: { name: 'Ada Lovelace', first_name: null, last_name: null },
    });
  });

  test('first_name + last_name alone: name is "first last"', () => {
    expect(resolveAddressName({ first_name: 'Ada', last_name: 'Lovelace' })).toEqual({
      ok: true,
      value: { name: 'Ada Lovelace', first_name: 'Ada', last_name: 'Lovelace' },
    });
  });

  test('all three: name wins for name, the parts are kept as given', () => {
    expect(
      resolveAddressName({ name: 'Countess of Lovelace', first_name: 'Ada', last_name: 'King' }),
    ).toEqual({
      ok: true,
      value: { name: 'Countess of Lovelace', first_name: 'Ada', last_name: 'King' },
    });
  });

  test('one part without the other names the other, with or without name; nothing names name', () => {
    expect(resolveAddressName({ first_name: 'Ada' })).toEqual({ ok: false, missing: 'last_name' });
    expect(resolveAddressName({ name: 'Ada', last_name: 'Lovelace' })).toEqual({
      ok: false,
      missing: 'first_name',
    });
    expect(resolveAddressName({})).toEqual({ ok: false, missing: 'name' });
    expect(resolveAddressName({ name: null, first_name: null, last_name: null })).toEqual({
      ok: false,
      missing: 'name',
    });
  });

  test('property: any request either resolves as specified or names the one field it lacks', () => {
    fc.assert(
      fc.property(field, field, field, (name, first_name, last_name) => {
        const result = resolveAddressName({ name, first_name, last_name });
        const hasFirst = first_name != null;
        const hasLast = last_name != null;
        if (hasFirst !== hasLast) {
          expect(result).toEqual({ ok: false, missing: hasFirst ? 'last_name' : 'first_name' });
        } else if (name == null && !hasFirst) {
          expect(result).toEqual({ ok: false, missing: 'name' });
        } else {
          expect(result).toEqual({
            ok: true,
            value: {
              name: name ?? `${first_name} ${last_name}`,
              first_name: first_name ?? null,
              last_name: last_name ?? null,
            },
          });
        }
        expect(missingAddressNameField({ name, first_name, last_name })).toBe(
          result.ok ? null : result.missing,
        );
      }),
    );
  });

  test('property: a resolved name resolves to itself again (what is stored reads back as it was)', () => {
    fc.assert(
      fc.property(field, field, field, (name, first_name, last_name) => {
        const result = resolveAddressName({ name, first_name, last_name });
        if (result.ok) expect(resolveAddressName(result.value)).toEqual(result);
      }),
    );
  });
});
