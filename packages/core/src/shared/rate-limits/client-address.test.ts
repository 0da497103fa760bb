import { describe, expect, it } from 'vitest';
import { addressKey } from './client-address';

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
