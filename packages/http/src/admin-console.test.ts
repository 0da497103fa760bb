import { gunzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { ADMIN_CONSOLE_CSP, createAdminConsole } from './admin-console';
import { ADMIN_CONSOLE_ASSETS } from './admin-console-assets.generated';

const get = (url: string, headers: Record<string, string> = {}) => new Request(url, { headers });

describe('createAdminConsole', () => {
  test('serves the page, its script and style sheet under the path; the bare path redirects to path/', async () => {
    const admin = createAdminConsole();
    const redirect = await admin(get('http://shop.test/admin'));
    expect(redirect.status).toBe(308);
    expect(redirect.headers.get('location')).toBe('/admin/');
    const page = await admin(get('http://shop.test/admin/'));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(ADMIN_CONSOLE_CSP);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const html = await page.text();
    expect(html).toContain('<script type="module" src="/admin/app.js"></script>');
    expect(html).toContain('<link rel="stylesheet" href="/admin/style.css">');
    expect(html).toContain('<meta name="cartwright-api" content="">');
    const js = await admin(get('http://shop.test/admin/app.js'));
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await js.text()).toBe(ADMIN_CONSOLE_ASSETS['app.js']);
    const css = await admin(get('http://shop.test/admin/style.css'));
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  test('a mount path and an API prefix of the host: the page loads its files from the path and calls the API under the prefix (escaped)', async () => {
    const admin = createAdminConsole({ path: '/back-office/', apiPrefix: '/shop"x' });
    expect(admin.path).toBe('/back-office');
    expect(admin.owns('/back-office')).toBe(true);
    expect(admin.owns('/back-office/app.js')).toBe(true);
    expect(admin.owns('/back-officer')).toBe(false);
    expect(admin.owns('/admin/')).toBe(false);
    const html = await (await admin(get('http://shop.test/back-office/'))).text();
    expect(html).toContain('src="/back-office/app.js"');
    expect(html).toContain('<meta name="cartwright-api" content="/shop&quot;x">');
    expect((await admin(get('http://shop.test/admin/'))).status).toBe(404);
  });

  test('compressed when asked, with a strong ETag: If-None-Match → 304 with no body', async () => {
    const admin = createAdminConsole();
    const gz = await admin(get('http://shop.test/admin/app.js', { 'accept-encoding': 'gzip' }));
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    const bytes = new Uint8Array(await gz.arrayBuffer());
    expect(gunzipSync(bytes).toString('utf8')).toBe(ADMIN_CONSOLE_ASSETS['app.js']);
    const etag = gz.headers.get('etag')!;
    const again = await admin(
      get('http://shop.test/admin/app.js', { 'accept-encoding': 'gzip', 'if-none-match': etag }),
    );
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  test('unknown files → 404; other methods → 405 with Allow; HEAD has no body', async () => {
    const admin = createAdminConsole();
    expect((await admin(get('http://shop.test/admin/secrets.json'))).status).toBe(404);
    expect((await admin(get('http://shop.test/admin/../v1/admin/store'))).status).toBe(404);
    const post = await admin(new Request('http://shop.test/admin/', { method: 'POST' }));
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    const head = await admin(new Request('http://shop.test/admin/', { method: 'HEAD' }));
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  test('refuses a path that is not a path, or the root', () => {
    expect(() => createAdminConsole({ path: 'admin' })).toThrow(TypeError);
    expect(() => createAdminConsole({ path: '/' })).toThrow(TypeError);
    expect(() => createAdminConsole({ apiPrefix: '/api?x' })).toThrow(TypeError);
  });

  test('the app renders data as text only: no innerHTML, outerHTML, insertAdjacentHTML or document.write', () => {
    const js = ADMIN_CONSOLE_ASSETS['app.js'];
    for (const sink of [
      'innerHTML',
      'outerHTML',
      'insertAdjacentHTML',
      'document.write',
      'eval(',
      'new Function',
    ]) {
      expect(js.includes(sink), sink).toBe(false);
    }
  });
});
