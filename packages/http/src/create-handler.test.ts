import { describe, expect, it } from 'vitest';
import { splitUrl } from './create-handler';

describe('splitUrl', () => {
  it.each([
    ['http://x.test/v1/products?limit=2&tag=a', '/v1/products', 'limit=2&tag=a'],
    ['https://x.test:8443/v1/products', '/v1/products', ''],
    ['http://x.test', '/', ''],
    ['/v1/a?b=1#frag', '/v1/a', 'b=1'],
    ['/v1/a#frag?not-query', '/v1/a', ''],
    ['/v1/a?', '/v1/a', ''],
  ])('%s → path %s, query %s', (url, path, query) => {
    expect(splitUrl(url)).toEqual({ path, query });
  });
});
