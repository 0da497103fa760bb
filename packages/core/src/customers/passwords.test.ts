import { randomBytes, scrypt } from 'node:crypto';
import { scryptAsync } from '@noble/hashes/scrypt.js';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { defaultScrypt } from '../ports/crypto';
import { createPasswordHasher, DEFAULT_PASSWORD_HASH_PARAMS } from './passwords';

/** A hash as the hasher made it with `node:crypto` before it went through the crypto port. */
function nodeHash(password: string, ln: number, salt = randomBytes(16)): Promise<string> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, 32, { N: 2 ** ln, r: 8, p: 1, maxmem: 256 * 2 ** ln * 8 }, (error, key) => {
      if (error) reject(error);
      else
        resolve(
          `$scrypt$ln=${ln},r=8,p=1$${salt.toString('base64').replace(/=+$/, '')}$${key.toString('base64').replace(/=+$/, '')}`,
        );
    });
  });
}

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

  test('passwords are compared after NFC normalisation: set in NFD, signs in with NFC and vice versa; ASCII hashes unchanged', async () => {
    const nfc = 'Crème brûlée 2024 Å';
    const nfd = nfc.normalize('NFD');
    expect(nfd).not.toBe(nfc);
    expect(await cheap.verify(nfc, await cheap.hash(nfd))).toBe(true);
    expect(await cheap.verify(nfd, await cheap.hash(nfc))).toBe(true);
    expect(await cheap.verify('Creme brulee 2024 A', await cheap.hash(nfd))).toBe(false);
    // A hash of an ASCII password made before normalisation (node:crypto on the raw text) verifies.
    expect(await cheap.verify('plain ascii password', await nodeHash('plain ascii password', 8))).toBe(true);
    // Hashes made before normalisation: of the NFC text, either spelling verifies; of another
    // form, that exact text still does.
    expect(await cheap.verify(nfd, await nodeHash(nfc, 8))).toBe(true);
    expect(await cheap.verify(nfd, await nodeHash(nfd, 8))).toBe(true);
    expect(await cheap.verify('豈 ', await nodeHash('豈 ', 8))).toBe(true);
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

  test('hashes made with node:crypto before the crypto port verify, and new ones verify there (same format, same bytes)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 64, unit: 'grapheme' }), async (password) => {
        const old = await nodeHash(password, 8);
        expect(await cheap.verify(password, old)).toBe(true);
        expect(await cheap.verify(`${password}!`, old)).toBe(false);
        const made = await cheap.hash(password);
        const [, , , salt] = made.split('$');
        expect(await nodeHash(password.normalize('NFC'), 8, Buffer.from(salt as string, 'base64'))).toBe(
          made,
        );
      }),
      { numRuns: 25 },
    );
  });

  test('a port without scrypt uses the default; a port with one derives every key', async () => {
    const calls: number[] = [];
    const hasher = createPasswordHasher(
      { ln: 6, r: 8, p: 1 },
      {
        scrypt: (password, salt, params, length) => {
          calls.push(params.N);
          return defaultScrypt(password, salt, params, length);
        },
      },
    );
    const hash = await hasher.hash('a password');
    expect(await hasher.verify('a password', hash)).toBe(true);
    expect(calls).toEqual([64, 64]);
    expect(await createPasswordHasher({ ln: 6, r: 8, p: 1 }, {}).verify('a password', hash)).toBe(true);
  });

  test('the default scrypt (native on Node) and the pure-JavaScript fallback give the RFC 7914 vectors', async () => {
    const utf8 = new TextEncoder();
    const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
    // RFC 7914 §12, the second and third vectors.
    const vectors = [
      {
        P: 'password',
        S: 'NaCl',
        N: 1024,
        r: 8,
        p: 16,
        hex: 'fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640',
      },
      {
        P: 'pleaseletmein',
        S: 'SodiumChloride',
        N: 16384,
        r: 8,
        p: 1,
        hex: '7023bdcb3afd7348461c06cd81fd38ebfda8fbba904f8e3ea9b543f6545da1f2d5432955613f0fcf62d49705242a9af9e61e85dc0d651e40dfcf017b45575887',
      },
    ];
    for (const v of vectors) {
      const params = { N: v.N, r: v.r, p: v.p };
      expect(hex(await defaultScrypt(utf8.encode(v.P), utf8.encode(v.S), params, 64))).toBe(v.hex);
      const fallback = await scryptAsync(utf8.encode(v.P), utf8.encode(v.S), { ...params, dkLen: 64 });
      expect(hex(fallback)).toBe(v.hex);
    }
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
