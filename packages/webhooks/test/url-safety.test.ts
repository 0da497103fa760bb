import { describe, expect, test } from 'vitest';
import { formatIpv4, parseIpv4, parseIpv6 } from '../src/ip-address';
import {
  blockedAddressReason,
  blockedHostnameReason,
  checkWebhookUrl,
  type ResolvedAddress,
  type Resolver,
} from '../src/url-safety';

/** A resolver from a table; unknown names fail like NXDOMAIN. */
function fakeResolver(table: Record<string, string[]>): Resolver {
  return async (hostname) => {
    const answers = table[hostname];
    if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return answers.map((address): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

describe('parseIpv4 (inet_aton forms)', () => {
  test.each([
    ['127.0.0.1', '127.0.0.1'],
    ['2130706433', '127.0.0.1'],
    ['0x7f000001', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['0x7f.0.0.1', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['10.1.258', '10.1.1.2'],
    ['017700000001', '127.0.0.1'],
    ['0', '0.0.0.0'],
  ])('%s is %s', (text, dotted) => {
    const value = parseIpv4(text);
    expect(value).not.toBeNull();
    expect(formatIpv4(value as number)).toBe(dotted);
  });

  test.each(['256.0.0.1', '1.2.3.4.5', '08.0.0.1', '0xg.0.0.1', 'example.com', '1..2', '4294967296', ''])(
    '%s is not an IPv4 address',
    (text) => expect(parseIpv4(text)).toBeNull(),
  );
});

describe('parseIpv6', () => {
  test('expands :: and an embedded IPv4 tail', () => {
    expect(parseIpv6('::1')).toBe(1n);
    expect(parseIpv6('[::ffff:127.0.0.1]')).toBe(0xffff7f000001n);
    expect(parseIpv6('::ffff:7f00:1')).toBe(0xffff7f000001n);
    expect(parseIpv6('fe80::1%eth0')).toBe((0xfe80n << 112n) | 1n);
    expect(parseIpv6('1:2:3:4:5:6:7:8')).toBe(0x00010002000300040005000600070008n);
  });

  test.each([
    '1:2:3:4:5:6:7:8:9',
    '1::2::3',
    '12345::1',
    'g::1',
    '127.0.0.1',
    '::ffff:300.0.0.1',
    '1:2:3:4:5:6:7',
  ])('%s is not an IPv6 address', (text) => expect(parseIpv6(text)).toBeNull());
});

describe('blockedAddressReason', () => {
  test.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'CGNAT'],
    ['100.127.255.255', 'CGNAT'],
    ['0.0.0.0', 'this network'],
    ['0.1.2.3', 'this network'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.0.170', 'IETF'],
    ['198.18.0.1', 'benchmarking'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['febf::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:169.254.169.254', 'IPv4-mapped link-local'],
    ['64:ff9b::127.0.0.1', 'NAT64 loopback'],
    ['64:ff9b::a00:1', 'NAT64 private'],
    ['2002:7f00:1::', '6to4 loopback'],
    ['::127.0.0.1', 'IPv4-compatible'],
    ['2001:db8::1', 'documentation'],
    ['2001::1', 'IETF'],
    ['4000::1', 'reserved'],
  ])('%s is refused (%s)', (address, label) => {
    expect(blockedAddressReason(address)).toContain(label);
  });

  test.each([
    '93.184.216.34',
    '8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '192.169.0.1',
    '2606:4700:4700::1111',
    '::ffff:93.184.216.34',
    '64:ff9b::5db8:d822',
    '2002:5db8:d822::1',
  ])('%s is public', (address) => {
    expect(blockedAddressReason(address)).toBeNull();
  });
});

describe('blockedHostnameReason', () => {
  test.each([
    'localhost',
    'LOCALHOST.',
    'api.localhost',
    'metadata.google.internal',
    'metadata.goog',
    'instance-data.ec2.internal',
    'metadata',
    'db.internal',
    'printer.local',
    'router.home.arpa',
    'intranet',
  ])('%s is refused before DNS', (host) => {
    expect(blockedHostnameReason(host)).not.toBeNull();
  });

  test.each(['hooks.example.com', 'example.com.', 'localhost.example.com'])(
    '%s needs DNS to decide',
    (host) => {
      expect(blockedHostnameReason(host)).toBeNull();
    },
  );
});

describe('checkWebhookUrl', () => {
  const resolve = fakeResolver({
    'public.example': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
    'rebind.example': ['93.184.216.34', '127.0.0.1'],
    'v6-private.example': ['fd00::1'],
    'mapped.example': ['::ffff:10.0.0.1'],
  });

  test('a public host name is allowed with all its addresses to connect to', async () => {
    const check = await checkWebhookUrl('https://public.example/hooks?x=1', { resolve });
    expect(check).toMatchObject({
      allowed: true,
      addresses: [{ address: '93.184.216.34', family: 4 }, { family: 6 }],
    });
  });

  test('every DNS answer must be public: one private answer refuses the URL', async () => {
    const check = await checkWebhookUrl('https://rebind.example/', { resolve });
    expect(check).toMatchObject({ allowed: false, kind: 'blocked' });
    expect(!check.allowed && check.reason).toContain(
      'rebind.example resolves to a loopback address 127.0.0.1',
    );
    expect((await checkWebhookUrl('https://v6-private.example/', { resolve })).allowed).toBe(false);
    expect((await checkWebhookUrl('https://mapped.example/', { resolve })).allowed).toBe(false);
  });

  test.each([
    'http://127.0.0.1/',
    'http://2130706433/',
    'http://0x7f000001/',
    'http://0177.0.0.1/',
    'http://127.1/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[64:ff9b::7f00:1]/',
    'http://169.254.169.254/latest/meta-data/',
    'http://localhost:8080/',
    'http://metadata.google.internal/computeMetadata/v1/',
  ])('%s is refused without DNS', async (url) => {
    const check = await checkWebhookUrl(url, { resolve: fakeResolver({}) });
    expect(check.allowed).toBe(false);
  });

  test('allowPrivate skips the address rules but still needs http(s)', async () => {
    expect(await checkWebhookUrl('http://127.0.0.1:3000/x', { allowPrivate: true })).toMatchObject({
      allowed: true,
      addresses: [{ address: '127.0.0.1', family: 4 }],
    });
    expect(await checkWebhookUrl('ftp://example.com/', { allowPrivate: true })).toMatchObject({
      allowed: false,
      kind: 'invalid',
    });
    expect(await checkWebhookUrl('not a url', { allowPrivate: true })).toMatchObject({
      allowed: false,
      kind: 'invalid',
    });
  });

  test('an unresolvable name is refused for delivery, allowed for registration', async () => {
    const none = fakeResolver({});
    const atDelivery = await checkWebhookUrl('https://not-yet-live.example/', { resolve: none });
    expect(atDelivery).toMatchObject({ allowed: false, kind: 'unresolved' });
    expect(!atDelivery.allowed && atDelivery.reason).toContain('ENOTFOUND');
    expect(
      await checkWebhookUrl('https://not-yet-live.example/', { resolve: none, unresolvable: 'allow' }),
    ).toMatchObject({ allowed: true, addresses: [] });
  });
});
