import { createHash } from 'node:crypto';

/**
 * The inline style sheet and script of the HTML API reference. Both are static text (no data from
 * the document goes into them), so the page needs no escaping inside `<style>`/`<script>` and
 * makes no external request. The script filters operations and renders the example responses on
 * demand; the page reads without it (but for those examples, which are in openapi.json too).
 */

/** Indentation classes `.d1`…`.d8` for nested rows of a field table. */
const DEPTH_RULES = Array.from(
  { length: 8 },
  (_, i) => `.fields tr.d${i + 1} td:first-child{padding-left:${0.5 + (i + 1) * 1.25}em}`,
).join('\n');

/** The page's CSS: light and dark colour schemes, a sticky navigation column on wide screens. */
export const API_REFERENCE_STYLE = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--soft:#f6f8fa;
--accent:#0969da;--get:#1a7f37;--post:#0969da;--put:#9a6700;--patch:#8250df;--delete:#cf222e}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;
--soft:#151b23;--accent:#4493f8;--get:#3fb950;--post:#4493f8;--put:#d29922;--patch:#ab7df8;--delete:#f85149}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
a{color:var(--accent);text-decoration:none}
a:hover{text-decoration:underline}
code{font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--soft);
border:1px solid var(--line);border-radius:4px;padding:0 .25em}
.layout{display:grid;grid-template-columns:minmax(240px,300px) 1fr;min-height:100vh}
nav{position:sticky;top:0;height:100vh;overflow:auto;border-right:1px solid var(--line);padding:1rem;background:var(--soft)}
nav h2{font-size:.75rem;text-transform:uppercase;letter-spacing:.05em;color:var(--muted);margin:1rem 0 .25rem}
nav ul{list-style:none;margin:0;padding:0}
nav li{margin:.1rem 0;font-size:.8rem;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
nav li code{border:0;background:none;padding:0}
main{padding:1.5rem 2rem 4rem;max-width:1100px;min-width:0}
header h1{margin:0 0 .25rem}
.version{color:var(--muted);font-size:.9rem}
#filter{width:100%;padding:.45rem .6rem;font:inherit;border:1px solid var(--line);border-radius:6px;background:var(--bg);color:var(--fg)}
#filter-count{display:block;color:var(--muted);font-size:.75rem;min-height:1.1em;margin-top:.25rem}
.tag-group>h2{border-bottom:2px solid var(--line);padding-bottom:.25rem;margin-top:2.5rem}
.op{border:1px solid var(--line);border-radius:8px;padding:.75rem 1rem;margin:1rem 0;scroll-margin-top:1rem}
.op:target{outline:2px solid var(--accent)}
.op h3{margin:0;font-size:1rem;display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
.op h3 .path{font-size:.95rem}
.op h4{margin:1rem 0 .35rem;font-size:.85rem;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}
.anchor{color:var(--muted);font-weight:400}
.method{display:inline-block;min-width:4.2em;text-align:center;border-radius:4px;padding:.05em .4em;
font:700 .75rem/1.5 ui-monospace,monospace;color:#fff;background:var(--muted)}
.method.get{background:var(--get)}.method.post{background:var(--post)}.method.put{background:var(--put)}
.method.patch{background:var(--patch)}.method.delete{background:var(--delete)}
nav .method{min-width:3.6em;font-size:.65rem}
.badge{display:inline-block;border:1px solid var(--line);border-radius:999px;padding:0 .55em;font-size:.72rem;
font-weight:600;color:var(--muted);white-space:nowrap}
.badge.secret{border-color:var(--delete);color:var(--delete)}
.badge.publishable{border-color:var(--get);color:var(--get)}
.badge.customer{border-color:var(--patch);color:var(--patch)}
.badge.deprecated{border-color:var(--put);color:var(--put)}
.summary{margin:.35rem 0 0;font-weight:600}
.desc p{margin:.35rem 0}
dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:.15rem 1rem;margin:.5rem 0 0;font-size:.88rem}
dl.meta dt{color:var(--muted)}
dl.meta dd{margin:0}
table{border-collapse:collapse;width:100%;font-size:.85rem}
th,td{text-align:left;vertical-align:top;border-top:1px solid var(--line);padding:.3rem .5rem}
th{color:var(--muted);font-weight:600;border-top:0}
td.req{white-space:nowrap}
.note{display:inline-block;color:var(--muted);font-size:.78rem;margin-right:.6em}
.note::before{content:"· "}
details{margin:.25rem 0}
summary{cursor:pointer;color:var(--accent)}
.schema-line{margin:.25rem 0;font-size:.9rem}
pre{margin:.35rem 0;background:var(--soft);border:1px solid var(--line);border-radius:6px;padding:.5rem .75rem;overflow:auto;max-height:28rem}
pre code{border:0;padding:0;background:none;white-space:pre}
${DEPTH_RULES}
@media (max-width:800px){.layout{display:block}nav{position:static;height:auto;border-right:0;border-bottom:1px solid var(--line)}
main{padding:1rem}}
`;

/**
 * The page's script: shows the search box (hidden without JS) and filters operations, their tag
 * groups and the navigation links by every word typed (method, path, summary, tag, operation id).
 * `/` focuses the box; Escape clears it. It also shows the example responses (hidden without JS):
 * a `<details data-example="N">` gets example N of the page's hidden `<pre id="examples">` (a
 * JSON array), indented, when it is first opened.
 */
export const API_REFERENCE_SCRIPT = `
(() => {
  const all = (selector) => Array.from(document.querySelectorAll(selector));
  const data = document.getElementById('examples');
  if (data) {
    const examples = JSON.parse(data.textContent || '[]');
    for (const details of all('details[data-example]')) {
      const code = details.querySelector('code');
      if (!code) continue;
      details.hidden = false;
      details.addEventListener('toggle', () => {
        if (!details.open || code.textContent) return;
        code.textContent = JSON.stringify(examples[Number(details.getAttribute('data-example'))], null, 2);
      });
    }
  }
  const input = document.getElementById('filter');
  const count = document.getElementById('filter-count');
  if (!input || !count) return;
  input.hidden = false;
  const ops = all('.op');
  const groups = all('.tag-group');
  const links = all('nav [data-op]');
  const navGroups = all('nav .nav-group');
  const apply = () => {
    const terms = input.value.toLowerCase().split(/\\s+/).filter(Boolean);
    const shown = new Set();
    for (const op of ops) {
      const text = op.getAttribute('data-search') || '';
      op.hidden = !terms.every((t) => text.includes(t));
      if (!op.hidden) shown.add(op.id);
    }
    for (const g of groups) g.hidden = !g.querySelector('.op:not([hidden])');
    for (const a of links) a.parentElement.hidden = !shown.has(a.getAttribute('data-op'));
    for (const g of navGroups) g.hidden = !g.querySelector('li:not([hidden])');
    count.textContent = terms.length ? shown.size + ' of ' + ops.length + ' operations' : '';
  };
  input.addEventListener('input', apply);
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      input.value = '';
      apply();
    }
  });
  document.addEventListener('keydown', (e) => {
    if (e.key === '/' && document.activeElement !== input) {
      e.preventDefault();
      input.focus();
    }
  });
  if (input.value) apply();
})();
`;

/** The CSP source expression of an inline `<script>`/`<style>` element's exact text. */
export function cspHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/**
 * The `Content-Security-Policy` of the page: nothing but its own inline style sheet and script,
 * allowed by their SHA-256 hashes (no `'unsafe-inline'`), so an injected `<script>`, inline
 * event handler, style attribute or external resource would not run or load. No base URL changes,
 * no form submissions and no framing (clickjacking). Links (`openapi.json`, anchors) are
 * navigations, which the policy does not restrict.
 */
export const API_REFERENCE_CSP = [
  "default-src 'none'",
  `script-src ${cspHash(API_REFERENCE_SCRIPT)}`,
  `style-src ${cspHash(API_REFERENCE_STYLE)}`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
