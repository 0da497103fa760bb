import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createPasswordHasher, DEFAULT_PASSWORD_HASH_PARAMS } from './passwords';

// Cheap parameters keep the unit tests fast; the default's cost is measured in the closing note.
const cheap = createPasswordHasher({ ln: 8, r: 8, p: 1 });

describe('password hashing (scrypt, PHC string)', () => {
  test('a hash verifies its password and no other', async () => {
    const hash = await cheap.hash('correct horse battery');
    expect(hash).toMatch(/^\$scrypt\$ln=8,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(await cheap.verify('correct horse battery', hash)).toBe(true);
    expect(await cheap.verify('correct horse batterY', hash)).toBe(false);
    expect(await cheap.verify('', hash)).toBe(false);
  });

  test('a salt per password: the same password hashes differently each time', async () => {
    const [a, b] = await Promise.all([cheap.hash('same password'), cheap.hash('same password')]);
    expect(a).not.toBe(b);
    expect(await cheap.verify('same password', a)).toBe(true);
    expect(await cheap.verify('same password', b)).toBe(true);
  });

  test('a hash made with other parameters still verifies, and asks to be rehashed', async () => {
    const older = createPasswordHasher({ ln: 6, r: 8, p: 1 });
    const hash = await older.hash('a password');
    expect(await cheap.verify('a password', hash)).toBe(true);
    expect(cheap.needsRehash(hash)).toBe(true);
    expect(cheap.needsRehash(await cheap.hash('a password'))).toBe(false);
    expect(older.needsRehash(await cheap.hash('a password'))).toBe(true);
  });

  test('a malformed or foreign hash never verifies and always asks to be rehashed', async () => {
    for (const bad of [
      '',
      'plain',
      '$2b$10$abcdefghijklmnopqrstuv',
      '$scrypt$ln=99,r=8,p=1$c2FsdA$aGFzaA',
      '$scrypt$ln=8,r=8,p=1$$',
    ]) {
      expect(await cheap.verify('plain', bad)).toBe(false);
      expect(cheap.needsRehash(bad)).toBe(true);
    }
  });

  test('verifyNothing does the work of a verification and answers false', async () => {
    expect(await cheap.verifyNothing('anything')).toBe(false);
    expect(await cheap.verifyNothing('anything')).toBe(false);
  });

  test('parameters are checked when the hasher is made', () => {
    expect(() => createPasswordHasher({ ln: 0, r: 8, p: 1 })).toThrow(TypeError);
    expect(() => createPasswordHasher({ ln: 21, r: 8, p: 1 })).toThrow(/ln 1–20/);
    expect(() => createPasswordHasher({ ln: 10, r: 0, p: 1 })).toThrow(TypeError);
    expect(() => createPasswordHasher({ ln: 10, r: 8, p: 1.5 })).toThrow(TypeError);
    expect(DEFAULT_PASSWORD_HASH_PARAMS).toEqual({ ln: 15, r: 8, p: 1 });
  });

  test('property: any password of 1–128 characters verifies against its own hash only', async () => {
    const tiny = createPasswordHasher({ ln: 4, r: 8, p: 1 });
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1, maxLength: 128 }),
        fc.string({ minLength: 1, maxLength: 128 }),
        async (a, b) => {
          const hash = await tiny.hash(a);
          expect(await tiny.verify(a, hash)).toBe(true);
          expect(await tiny.verify(b, hash)).toBe(a === b);
        },
      ),
      { numRuns: 40 },
    );
  });
});
