import { describe, expect, it } from 'vitest';
import { addressKey, canonicalClientAddress, canonicalIp } from './client-address';

describe('addressKey', () => {
  it('keeps an IPv4 address, also when IPv4-mapped', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey(' ::FFFF:127.0.0.1 ')).toBe('127.0.0.1');
  });

  it('counts an IPv6 address by its /64, however it is written', () => {
    const key = '2001:db8:0:1::/64';
    expect(addressKey('2001:db8:0:1::1')).toBe(key);
    expect(addressKey('2001:0db8:0000:0001:ffff:0:0:9')).toBe(key);
    expect(addressKey('2001:DB8:0:1:a:b:c:d')).toBe(key);
    expect(addressKey('2001:db8:0:2::1')).not.toBe(key);
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('anything else is counted as written', () => {
    expect(addressKey('not an address')).toBe('not an address');
    expect(addressKey('1:2:3')).toBe('1:2:3');
    expect(addressKey('1::2::3')).toBe('1::2::3');
  });
});

describe('canonicalIp', () => {
  it('writes an IPv4 address without leading zeros', () => {
    expect(canonicalIp('203.0.113.7')).toBe('203.0.113.7');
    expect(canonicalIp(' 203.000.113.007 ')).toBe('203.0.113.7');
    expect(canonicalIp('0.0.0.0')).toBe('0.0.0.0');
  });

  it('compresses an IPv6 address as RFC 5952 does', () => {
    expect(canonicalIp('2001:0DB8:0000:0000:0000:0000:0000:0001')).toBe('2001:db8::1');
    expect(canonicalIp('2001:db8:0:0:1:0:0:1')).toBe('2001:db8::1:0:0:1');
    expect(canonicalIp('2001:db8:0:1:1:1:1:1')).toBe('2001:db8:0:1:1:1:1:1');
    expect(canonicalIp('0:0:0:0:0:0:0:0')).toBe('::');
    expect(canonicalIp('::1')).toBe('::1');
    expect(canonicalIp('fe80:0:0:0:0:0:0:0')).toBe('fe80::');
    expect(canonicalIp('64:ff9b::192.0.2.33')).toBe('64:ff9b::c000:221');
  });

  it('writes an IPv4-mapped IPv6 address as its IPv4 address, in either notation', () => {
    expect(canonicalIp('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(canonicalIp('::FFFF:cb00:7107')).toBe('203.0.113.7');
    expect(canonicalIp('0:0:0:0:0:ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('refuses anything that is not a bare IP address', () => {
    for (const value of [
      '',
      'localhost',
      '203.0.113',
      '203.0.113.256',
      '203.0.113.7:80',
      '[2001:db8::1]',
      '2001:db8::1%eth0',
      '1::2::3',
      '12345::1',
      '1:2:3:4:5:6:7:8:9',
      '203.0.113.7, 198.51.100.1',
      '+1.2.3.4',
    ]) {
      expect(canonicalIp(value), value).toBeNull();
    }
  });
});

describe('canonicalClientAddress', () => {
  it('drops a port, brackets and a zone; keeps anything else as written', () => {
    expect(canonicalClientAddress('203.0.113.7:51234')).toBe('203.0.113.7');
    expect(canonicalClientAddress('[2001:DB8::0:1]:443')).toBe('2001:db8::1');
    expect(canonicalClientAddress('[::ffff:203.0.113.7]')).toBe('203.0.113.7');
    expect(canonicalClientAddress('fe80::1%eth0')).toBe('fe80::1');
    expect(canonicalClientAddress(' Proxy.Example ')).toBe('proxy.example');
  });

  it('one address counts under one key however it is written', () => {
    const spellings = [
      '203.0.113.7',
      '203.0.113.007',
      '203.0.113.7:8080',
      '::ffff:203.0.113.7',
      '[::ffff:cb00:7107]:1',
    ];
    expect(new Set(spellings.map(addressKey))).toEqual(new Set(['203.0.113.7']));
  });
});
