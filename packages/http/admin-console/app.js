// The Cartwright admin console (decisions §23, docs/back-office.md#the-admin-console): one plain ES
// module, no dependencies, no build step. It talks only to the public /v1 API, signed in with the
// staff session cookie (POST /v1/admin/session); every request that changes state sends the
// `Cartwright-Csrf` header, every request the `Cartwright-Mode` header (live or test).
// Data from the API is only ever rendered as text (textContent, attribute values), never as HTML.

const API = document.querySelector('meta[name="cartwright-api"]')?.getAttribute('content') ?? '';
const root = document.getElementById('app');
const MODE_KEY = 'cartwright-admin-mode';

// `hosted`: the embedding host signed the person in (its `authorize` hook; the session has no
// `expires_at`) and ends the session itself, so the console offers no sign-out.
const state = { member: null, hosted: false, store: null, reveal: null };

// ------------------------------------------------------------------------------------ helpers

/** An element: props (`on*` listeners, `value`/`checked` properties, other attributes), children as text or nodes. */
function h(tag, props, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on')) el.addEventListener(key.slice(2), value);
    else if (key === 'value' || key === 'checked') el[key] = value;
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

function mode() {
  return localStorage.getItem(MODE_KEY) === 'test' ? 'test' : 'live';
}

/**
 * The mode to start in when none was chosen: where the orders are. `pnpm start` makes test keys
 * only, so a fresh installation's orders are test orders; a shop with live orders starts in live.
 * Nothing is remembered unless test is picked, so a shop that goes live later starts in live.
 */
async function chooseModeOnce() {
  if (localStorage.getItem(MODE_KEY) !== null) return;
  const orders = async (m) => {
    const res = await fetch(`${API}/v1/admin/orders?limit=1`, {
      headers: { 'Cartwright-Mode': m },
      credentials: 'same-origin',
    });
    if (!res.ok) return 0;
    const body = await res.json();
    return Array.isArray(body?.data) ? body.data.length : 0;
  };
  try {
    if ((await orders('live')) === 0 && (await orders('test')) > 0) localStorage.setItem(MODE_KEY, 'test');
  } catch {
    // The default (live) stays.
  }
}

class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** One call of the /v1 API with the staff session; an error answer throws its message. */
async function api(method, path, body) {
  const headers = { 'Cartwright-Mode': mode() };
  if (method !== 'GET') headers['Cartwright-Csrf'] = '1';
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res;
  try {
    res = await fetch(API + path, {
      method,
      headers,
      credentials: 'same-origin',
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
  } catch (error) {
    throw new ApiError(0, 'network_error', `The API could not be reached: ${error.message}`);
  }
  const text = await res.text();
  let data = null;
  try {
    data = text === '' ? null : JSON.parse(text);
  } catch {
    data = null;
  }
  if (!res.ok) {
    const message = data?.error?.message ?? `The API answered ${res.status}.`;
    const error = new ApiError(res.status, data?.error?.code ?? 'unknown', message);
    if (res.status === 401 && path !== '/v1/admin/session') {
      state.member = null;
      render();
    }
    throw error;
  }
  return data;
}

function query(params) {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') q.set(key, String(value));
  }
  const s = q.toString();
  return s === '' ? '' : `?${s}`;
}

// The ISO 4217 minor-unit exponents the engine uses (decisions §19, core regions/currencies.ts):
// these codes have 0, 3 or 4 decimals, every other one 2.
const DECIMALS = new Map([
  ...'BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF'.split(' ').map((c) => [c, 0]),
  ...'BHD IQD JOD KWD LYD OMR TND'.split(' ').map((c) => [c, 3]),
  ['CLF', 4],
  ['UYW', 4],
]);

function digitsOf(currency) {
  return DECIMALS.get(String(currency).toUpperCase()) ?? 2;
}

function money(m) {
  if (m === null || m === undefined) return '—';
  const digits = digitsOf(m.currency);
  try {
    return new Intl.NumberFormat(undefined, {
      style: 'currency',
      currency: m.currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(m.amount / 10 ** digits);
  } catch {
    return `${m.amount} ${m.currency}`;
  }
}

function currency() {
  return state.store?.currency ?? 'USD';
}

/** A decimal amount typed by a person → integer minor units of the store currency (NaN when not an amount of it, see amountOf). */
function toMinor(text, cur = currency()) {
  try {
    return amountOf(text, cur, 'Amount');
  } catch {
    return Number.NaN;
  }
}

function toMajor(amount, cur = currency()) {
  return (amount / 10 ** digitsOf(cur)).toFixed(digitsOf(cur));
}

function when(iso) {
  if (!iso) return '—';
  return new Date(iso).toLocaleString();
}

const GOOD = new Set([
  'completed',
  'paid',
  'fulfilled',
  'delivered',
  'active',
  'shipped',
  'approved',
  'succeeded',
]);
const BAD = new Set(['cancelled', 'failed', 'refunded', 'rejected', 'archived', 'inactive', 'disabled']);

function badge(status, label) {
  const code = /^\d{3}$/.test(status) ? Number(status) : 0;
  const kind =
    GOOD.has(status) || (code > 0 && code < 400) ? 'good' : BAD.has(status) || code >= 500 ? 'bad' : 'wait';
  const text = String(status).replaceAll('_', ' ');
  return h('span', { class: `badge ${kind}` }, label ? `${label}: ${text}` : text);
}

function errorSlot() {
  return h('p', { class: 'error', role: 'alert' });
}

function showError(slot, error) {
  slot.textContent = error instanceof Error ? error.message : String(error);
}

/** Runs `action` for a form or button, showing its error (the API's message) in `slot`. */
async function attempt(slot, button, action) {
  slot.textContent = '';
  if (button) button.disabled = true;
  try {
    await action();
  } catch (error) {
    showError(slot, error);
  } finally {
    if (button) button.disabled = false;
  }
}

function field(label, input) {
  const id = input.id || `f-${Math.random().toString(36).slice(2)}`;
  input.id = id;
  return h('div', {}, h('label', { for: id }, label), input);
}

function select(name, options, value) {
  return h(
    'select',
    { name },
    options.map(([v, label]) => h('option', { value: v, selected: v === value }, label)),
  );
}

/** A table; `stack`: on a narrow screen each row becomes a block, each cell under its column's name. */
function table(columns, rows, empty = 'Nothing here yet.', stack = false) {
  if (rows.length === 0) return h('p', { class: 'muted' }, empty);
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: stack ? 'stack' : null },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          columns.map((c) => h('th', { scope: 'col', class: c.num ? 'num' : null }, c.label)),
        ),
      ),
      h(
        'tbody',
        {},
        rows.map((row) =>
          h(
            'tr',
            {},
            columns.map((c) =>
              h('td', { class: c.num ? 'num' : null, 'data-label': stack ? c.label : null }, c.render(row)),
            ),
          ),
        ),
      ),
    ),
  );
}

function link(href, text) {
  return h('a', { href }, text);
}

function idLink(base, id, text) {
  return link(`#/${base}/${encodeURIComponent(id)}`, text);
}

function parseHash() {
  const raw = location.hash.replace(/^#/, '') || '/';
  const [path, q = ''] = raw.split('?');
  return { parts: path.split('/').filter(Boolean), params: new URLSearchParams(q) };
}

function go(hash) {
  if (location.hash === hash) render();
  else location.hash = hash;
}

function page(title, ...children) {
  return [h('h1', {}, title), ...children];
}

// ------------------------------------------------------------------------------------ layout

const NAV = [
  ['dashboard', 'Dashboard'],
  ['orders', 'Orders'],
  ['products', 'Products'],
  ['catalog', 'Catalog'],
  ['customers', 'Customers'],
  ['discounts', 'Discounts'],
  ['logs', 'API logs'],
  ['settings', 'Settings'],
];

function layout(section, content) {
  const modeSelect = select(
    'mode',
    [
      ['live', 'Live'],
      ['test', 'Test'],
    ],
    mode(),
  );
  modeSelect.id = 'mode';
  modeSelect.addEventListener('change', () => {
    localStorage.setItem(MODE_KEY, modeSelect.value);
    state.store = null;
    render();
  });
  const signOutError = errorSlot();
  const signOut = h('button', { type: 'button' }, 'Sign out');
  signOut.addEventListener('click', () =>
    attempt(signOutError, signOut, async () => {
      await api('DELETE', '/v1/admin/session');
      state.member = null;
      go('#/sign-in');
    }),
  );
  const main = h('main', { id: 'main', tabindex: '-1' }, signOutError, content);
  return [
    h(
      'header',
      { class: 'top' },
      h('span', { class: 'brand' }, 'Cartwright'),
      h(
        'nav',
        { 'aria-label': 'Sections' },
        NAV.map(([key, label]) =>
          h('a', { href: `#/${key}`, 'aria-current': key === section ? 'page' : null }, label),
        ),
      ),
      h(
        'div',
        { class: 'who' },
        h('label', { for: 'mode', class: 'inline' }, 'Mode'),
        modeSelect,
        h(
          'span',
          { 'data-testid': 'who' },
          `${state.member.email || state.member.user_id} (${state.member.role})`,
        ),
        state.hosted ? null : signOut,
      ),
    ),
    main,
  ];
}

// ------------------------------------------------------------------------------------ sign-in

function signInPage() {
  const email = h('input', { type: 'email', name: 'email', autocomplete: 'username', required: true });
  const password = h('input', {
    type: 'password',
    name: 'password',
    autocomplete: 'current-password',
    required: true,
  });
  const error = errorSlot();
  const button = h('button', { type: 'submit', class: 'primary' }, 'Sign in');
  const form = h(
    'form',
    { class: 'card narrow', 'aria-labelledby': 'signin-title' },
    h('h1', { id: 'signin-title' }, 'Sign in to Cartwright'),
    field('E-mail', email),
    field('Password', password),
    error,
    h('div', { class: 'actions' }, button),
    h(
      'p',
      { class: 'muted' },
      'No account yet? Run `cartwright members create --email you@example.com --role admin` and open the link it prints.',
    ),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    attempt(error, button, async () => {
      const session = await api('POST', '/v1/admin/session', {
        email: email.value,
        password: password.value,
      });
      state.member = session.member;
      await chooseModeOnce();
      // A link opened while signed out (#/products/…) shows its page once signed in.
      if (/^#\/(sign-in)?$/.test(location.hash) || location.hash === '') go('#/dashboard');
      else render();
    });
  });
  return h('main', { id: 'main', tabindex: '-1' }, form);
}

function acceptInvitePage(params) {
  const token = params.get('token') ?? '';
  const password = h('input', {
    type: 'password',
    name: 'password',
    autocomplete: 'new-password',
    minlength: '8',
    required: true,
  });
  const confirm = h('input', {
    type: 'password',
    name: 'confirm',
    autocomplete: 'new-password',
    required: true,
  });
  const error = errorSlot();
  const button = h('button', { type: 'submit', class: 'primary' }, 'Set password and sign in');
  const form = h(
    'form',
    { class: 'card narrow', 'aria-labelledby': 'invite-title' },
    h('h1', { id: 'invite-title' }, 'Accept your invitation'),
    token === '' ? h('p', { class: 'error', role: 'alert' }, 'This link has no invitation token.') : null,
    field('New password (8 characters or more)', password),
    field('Repeat the password', confirm),
    error,
    h('div', { class: 'actions' }, button),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (password.value !== confirm.value) {
      showError(error, 'The two passwords differ.');
      return;
    }
    attempt(error, button, async () => {
      const session = await api('POST', '/v1/admin/session/accept-invite', {
        token,
        password: password.value,
      });
      state.member = session.member;
      await chooseModeOnce();
      go('#/dashboard');
    });
  });
  return h('main', { id: 'main', tabindex: '-1' }, form);
}

// ------------------------------------------------------------------------------------ dashboard

function change(pct) {
  const sign = pct > 0 ? '+' : '';
  return h(
    'span',
    { class: `change ${pct > 0 ? 'up' : pct < 0 ? 'down' : ''}` },
    `${sign}${pct.toFixed(1)}% vs previous`,
  );
}

function kpiCard(label, kpi, isMoney) {
  return h(
    'div',
    { class: 'card kpi', 'data-testid': `kpi-${label.toLowerCase().replaceAll(' ', '-')}` },
    h('div', { class: 'muted' }, label),
    h('div', { class: 'value' }, isMoney ? money(kpi.value) : String(kpi.value)),
    change(kpi.change_pct),
  );
}

const SVG = 'http://www.w3.org/2000/svg';
function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  append(el, children);
  return el;
}

/** The revenue chart as inline SVG: one bar per day, its amount in a <title> (tooltip). */
function revenueChart(points) {
  const width = 1000;
  const height = 240;
  const pad = { top: 20, right: 8, bottom: 28, left: 8 };
  const highest = Math.max(0, ...points.map((p) => p.revenue.amount));
  const max = Math.max(1, highest);
  const slot = (width - pad.left - pad.right) / Math.max(points.length, 1);
  const barWidth = Math.max(2, slot * 0.7);
  const plot = height - pad.top - pad.bottom;
  const total = points.reduce((sum, p) => sum + p.revenue.amount, 0);
  const cur = points[0]?.revenue.currency ?? currency();
  const chart = svg(
    'svg',
    {
      viewBox: `0 0 ${width} ${height}`,
      role: 'img',
      'aria-label': `Revenue per day, ${points.length} days, ${money({ amount: total, currency: cur })} in all`,
    },
    svg('line', {
      class: 'axis',
      x1: pad.left,
      x2: width - pad.right,
      y1: height - pad.bottom,
      y2: height - pad.bottom,
    }),
    points.map((p, i) => {
      const barHeight = (p.revenue.amount / max) * plot;
      return svg(
        'rect',
        {
          class: 'bar',
          x: pad.left + i * slot + (slot - barWidth) / 2,
          y: height - pad.bottom - barHeight,
          width: barWidth,
          height: Math.max(barHeight, p.revenue.amount > 0 ? 1 : 0),
          rx: 2,
        },
        svg('title', {}, `${p.date}: ${money(p.revenue)}`),
      );
    }),
    points.length > 0 ? svg('text', { x: pad.left, y: height - 8 }, points[0].date) : null,
    points.length > 1
      ? svg('text', { x: width - pad.right, y: height - 8, 'text-anchor': 'end' }, points.at(-1).date)
      : null,
    svg('line', {
      class: 'axis',
      x1: pad.left,
      x2: width - pad.right,
      y1: pad.top,
      y2: pad.top,
      'stroke-dasharray': '4 4',
    }),
    svg(
      'text',
      { x: pad.left, y: 14 },
      highest > 0
        ? `${money({ amount: highest, currency: cur })} (highest day)`
        : 'No revenue in this period',
    ),
  );
  return h('div', { class: 'chart' }, chart);
}

async function dashboardPage(params) {
  const period = params.get('period') === '30' ? '30' : '7';
  const stats = await api('GET', `/v1/admin/dashboard/stats?period=${period}`);
  const periodSelect = select(
    'period',
    [
      ['7', 'Last 7 days'],
      ['30', 'Last 30 days'],
    ],
    period,
  );
  periodSelect.addEventListener('change', () => go(`#/dashboard?period=${periodSelect.value}`));
  return page(
    'Dashboard',
    h(
      'div',
      { class: 'kpis' },
      kpiCard("Today's revenue", stats.kpi.today_revenue, true),
      kpiCard("Today's orders", stats.kpi.today_orders, false),
      kpiCard('Month to date', stats.kpi.month_revenue, true),
      kpiCard('Open orders', stats.kpi.pending_orders, false),
    ),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'chart-title' },
      h(
        'div',
        { class: 'row' },
        h('h2', { id: 'chart-title', class: 'inline' }, 'Revenue'),
        h('div', { class: 'shrink' }, field('Period', periodSelect)),
      ),
      revenueChart(stats.revenue_chart),
    ),
    h(
      'div',
      { class: 'grid2' },
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'recent-title' },
        h('h2', { id: 'recent-title' }, 'Recent orders'),
        table(
          [
            { label: 'Order', render: (o) => idLink('orders', o.id, `#${o.order_number}`) },
            { label: 'Customer', render: (o) => o.email },
            { label: 'Status', render: (o) => badge(o.status) },
            { label: 'Total', num: true, render: (o) => money(o.total) },
          ],
          stats.recent_orders,
          'No orders yet.',
        ),
      ),
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'stock-title' },
        h('h2', { id: 'stock-title' }, 'Low stock'),
        table(
          [
            { label: 'Product', render: (a) => a.product_name },
            { label: 'SKU', render: (a) => a.sku ?? '—' },
            { label: 'Available', num: true, render: (a) => String(a.available) },
            { label: 'Safety stock', num: true, render: (a) => String(a.safety_stock) },
          ],
          stats.low_stock_alerts,
          'Nothing is running low.',
        ),
      ),
    ),
  );
}

// ------------------------------------------------------------------------------------ orders

const ORDER_STATUSES = ['pending', 'confirmed', 'processing', 'completed', 'cancelled', 'draft'];
const PAYMENT_STATUSES = [
  'unpaid',
  'awaiting_payment',
  'partially_paid',
  'paid',
  'partially_refunded',
  'refunded',
];
const FULFILLMENT_STATUSES = ['unfulfilled', 'partially_fulfilled', 'fulfilled', 'returned'];

function choices(values, anyLabel) {
  return [['', anyLabel], ...values.map((v) => [v, v.replaceAll('_', ' ')])];
}

/** A filter form whose values go into the hash's query (so a filtered list can be bookmarked). */
function filterForm(base, inputs) {
  const form = h(
    'form',
    { class: 'card row', role: 'search' },
    inputs.map(([label, input]) => field(label, input)),
    h('div', { class: 'shrink' }, h('button', { type: 'submit' }, 'Apply')),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const values = {};
    for (const [, input] of inputs) values[input.name] = input.value;
    go(`#/${base}${query(values)}`);
  });
  return form;
}

function pager(base, params, list) {
  if (!list.has_more && !params.get('starting_after')) return null;
  const next = Object.fromEntries(params);
  next.starting_after = list.data.at(-1)?.id;
  const first = Object.fromEntries(params);
  delete first.starting_after;
  return h(
    'div',
    { class: 'actions' },
    params.get('starting_after') ? link(`#/${base}${query(first)}`, 'First page') : null,
    list.has_more ? link(`#/${base}${query(next)}`, 'Next page') : null,
  );
}

async function ordersPage(params) {
  const filters = {
    status: params.get('status') ?? '',
    payment_status: params.get('payment_status') ?? '',
    fulfillment_status: params.get('fulfillment_status') ?? '',
    q: params.get('q') ?? '',
  };
  const list = await api(
    'GET',
    `/v1/admin/orders${query({ ...filters, limit: 25, starting_after: params.get('starting_after') })}`,
  );
  const search = h('input', { type: 'search', name: 'q', value: filters.q, placeholder: 'Number or e-mail' });
  return page(
    'Orders',
    filterForm('orders', [
      ['Search', search],
      ['Status', select('status', choices(ORDER_STATUSES, 'Any status'), filters.status)],
      ['Payment', select('payment_status', choices(PAYMENT_STATUSES, 'Any payment'), filters.payment_status)],
      [
        'Fulfilment',
        select(
          'fulfillment_status',
          choices(FULFILLMENT_STATUSES, 'Any fulfilment'),
          filters.fulfillment_status,
        ),
      ],
    ]),
    h('p', { class: 'muted' }, `${list.total_count ?? list.data.length} orders`),
    table(
      [
        { label: 'Order', render: (o) => idLink('orders', o.id, `#${o.number}`) },
        { label: 'Placed', render: (o) => when(o.created_at) },
        { label: 'Customer', render: (o) => o.email },
        { label: 'Status', render: (o) => badge(o.status) },
        { label: 'Payment', render: (o) => badge(o.payment_status) },
        { label: 'Fulfilment', render: (o) => badge(o.fulfillment_status) },
        { label: 'Total', num: true, render: (o) => money(o.total) },
      ],
      list.data,
      'No orders match.',
    ),
    pager('orders', params, list),
  );
}

async function orderPage(id) {
  const [order, returns] = await Promise.all([
    api('GET', `/v1/admin/orders/${encodeURIComponent(id)}`),
    api('GET', `/v1/admin/returns${query({ order_id: id, limit: 50 })}`).catch(() => ({ data: [] })),
  ]);
  const cur = order.total.currency;
  const reload = () => render();
  const actionsError = errorSlot();

  // Cancel
  const cancelButton = h('button', { type: 'button', class: 'danger' }, 'Cancel order');
  cancelButton.addEventListener('click', () => {
    const reason = prompt('Why is this order cancelled? (optional)');
    if (reason === null) return;
    attempt(actionsError, cancelButton, async () => {
      await api('POST', `/v1/admin/orders/${encodeURIComponent(id)}/cancel`, reason ? { reason } : {});
      reload();
    });
  });
  const canCancel = order.status !== 'cancelled' && order.status !== 'completed';

  // Fulfil
  const remaining = order.lines.map((line) => ({
    line,
    input: h('input', {
      type: 'number',
      min: '0',
      max: String(line.quantity - line.fulfilled_quantity),
      value: String(Math.max(0, line.quantity - line.fulfilled_quantity)),
      'aria-label': `Quantity of ${line.product_name} to fulfil`,
    }),
  }));
  const carrier = h('input', { name: 'carrier' });
  const tracking = h('input', { name: 'tracking_number' });
  const fulfilError = errorSlot();
  const fulfilButton = h('button', { type: 'submit', class: 'primary' }, 'Create fulfilment');
  const fulfilForm = h(
    'form',
    { class: 'card', 'aria-labelledby': 'fulfil-title' },
    h('h2', { id: 'fulfil-title' }, 'Fulfil'),
    table(
      [
        {
          label: 'Item',
          render: (r) => `${r.line.product_name}${r.line.variant_name ? ` — ${r.line.variant_name}` : ''}`,
        },
        { label: 'Ordered', num: true, render: (r) => String(r.line.quantity) },
        { label: 'Fulfilled', num: true, render: (r) => String(r.line.fulfilled_quantity) },
        { label: 'Fulfil now', render: (r) => r.input },
      ],
      remaining,
    ),
    h(
      'div',
      { class: 'row' },
      field('Carrier (optional)', carrier),
      field('Tracking number (optional)', tracking),
    ),
    fulfilError,
    h('div', { class: 'actions' }, fulfilButton),
  );
  fulfilForm.addEventListener('submit', (event) => {
    event.preventDefault();
    attempt(fulfilError, fulfilButton, async () => {
      const lines = remaining
        .map((r) => ({ order_line_id: r.line.id, quantity: Number(r.input.value) }))
        .filter((l) => l.quantity > 0);
      await api('POST', `/v1/admin/orders/${encodeURIComponent(id)}/fulfillments`, {
        lines,
        ...(carrier.value.trim() && { carrier: carrier.value.trim() }),
        ...(tracking.value.trim() && { tracking_number: tracking.value.trim() }),
      });
      reload();
    });
  });
  const anythingToFulfil = order.lines.some((l) => l.quantity > l.fulfilled_quantity);

  // Refund
  const refundable = order.total.amount - order.refunded_total.amount;
  const refundAmount = h('input', {
    name: 'amount',
    inputmode: 'decimal',
    value: toMajor(Math.max(0, refundable), cur),
  });
  const refundReason = h('input', { name: 'reason' });
  const restock = h('input', { type: 'checkbox', name: 'restock' });
  const refundError = errorSlot();
  const refundButton = h('button', { type: 'submit', class: 'primary' }, 'Refund');
  const refundForm = h(
    'form',
    { class: 'card', 'aria-labelledby': 'refund-title' },
    h('h2', { id: 'refund-title' }, 'Refund'),
    h(
      'div',
      { class: 'row' },
      field(`Amount (${cur})`, refundAmount),
      field('Reason (optional)', refundReason),
    ),
    h('label', {}, restock, ' Put the items back in stock'),
    refundError,
    h('div', { class: 'actions' }, refundButton),
  );
  refundForm.addEventListener('submit', (event) => {
    event.preventDefault();
    attempt(refundError, refundButton, async () => {
      const amount = toMinor(refundAmount.value, cur);
      if (!Number.isFinite(amount)) throw new Error('The amount must be a number, e.g. 12.50.');
      const body = { amount, restock: restock.checked };
      if (refundReason.value.trim()) body.reason = refundReason.value.trim();
      if (restock.checked) {
        body.lines = order.lines
          .filter((l) => l.quantity - l.refunded_quantity > 0)
          .map((l) => ({ order_line_id: l.id, quantity: l.quantity - l.refunded_quantity }));
      }
      await api('POST', `/v1/admin/orders/${encodeURIComponent(id)}/refunds`, body);
      reload();
    });
  });

  // Record a payment
  const payAmount = h('input', {
    name: 'amount',
    inputmode: 'decimal',
    value: toMajor(order.total.amount, cur),
  });
  const payProvider = h('input', { name: 'provider', value: 'manual' });
  const payError = errorSlot();
  const payButton = h('button', { type: 'submit' }, 'Record payment');
  const payForm = h(
    'form',
    { 'aria-label': 'Record a payment' },
    h(
      'div',
      { class: 'row' },
      field(`Amount (${cur})`, payAmount),
      field('Provider', payProvider),
      h('div', { class: 'shrink' }, payButton),
    ),
    payError,
  );
  payForm.addEventListener('submit', (event) => {
    event.preventDefault();
    attempt(payError, payButton, async () => {
      const amount = toMinor(payAmount.value, cur);
      if (!Number.isFinite(amount)) throw new Error('The amount must be a number, e.g. 12.50.');
      await api('POST', `/v1/admin/orders/${encodeURIComponent(id)}/payments`, {
        amount,
        provider: payProvider.value.trim(),
      });
      reload();
    });
  });

  const fulfilmentAction = (f) => {
    const slot = h('span', { class: 'error', role: 'alert' });
    const make = (label, path) => {
      const b = h('button', { type: 'button' }, label);
      b.addEventListener('click', () =>
        attempt(slot, b, async () => {
          await api('POST', `/v1/admin/fulfillments/${encodeURIComponent(f.id)}/${path}`, {});
          reload();
        }),
      );
      return b;
    };
    return h(
      'span',
      {},
      f.status === 'pending' ? make('Mark shipped', 'ship') : null,
      f.status === 'shipped' ? make('Mark delivered', 'deliver') : null,
      slot,
    );
  };
  const paymentAction = (p) => {
    if (p.status !== 'pending') return null;
    const slot = h('span', { class: 'error', role: 'alert' });
    const b = h('button', { type: 'button' }, 'Mark completed');
    b.addEventListener('click', () =>
      attempt(slot, b, async () => {
        await api('POST', `/v1/admin/payments/${encodeURIComponent(p.id)}/complete`, {});
        reload();
      }),
    );
    return h('span', {}, b, slot);
  };
  const returnsError = errorSlot();
  const returnActions = (r) => {
    const make = (label, action, danger) => {
      const b = h('button', { type: 'button', class: danger ? 'danger' : null }, label);
      b.addEventListener('click', () =>
        attempt(returnsError, b, async () => {
          await api('POST', `/v1/admin/returns/${encodeURIComponent(r.id)}/${action}`, {});
          reload();
        }),
      );
      return b;
    };
    const buttons = {
      requested: [make('Approve', 'approve'), make('Reject', 'reject', true), make('Cancel', 'cancel', true)],
      approved: [make('Mark received', 'receive'), make('Cancel', 'cancel', true)],
      received: [make('Complete', 'complete')],
    };
    return h('span', { class: 'actions' }, buttons[r.status] ?? null);
  };

  return page(
    `Order #${order.number}`,
    h(
      'div',
      { class: 'actions' },
      badge(order.status, 'Order'),
      badge(order.payment_status, 'Payment'),
      badge(order.fulfillment_status, 'Fulfilment'),
      canCancel ? cancelButton : null,
    ),
    actionsError,
    h(
      'div',
      { class: 'grid2' },
      h(
        'section',
        { class: 'card', 'aria-label': 'Summary' },
        h(
          'dl',
          { class: 'facts' },
          h('dt', {}, 'Customer'),
          h('dd', {}, order.email),
          h('dt', {}, 'Placed'),
          h('dd', {}, when(order.created_at)),
          h('dt', {}, 'Ship to'),
          h('dd', {}, addressText(order.shipping_address)),
          h('dt', {}, 'Shipping'),
          h('dd', {}, order.shipping_method_name ?? '—'),
          h('dt', {}, 'Note'),
          h('dd', {}, order.note ?? '—'),
        ),
      ),
      h(
        'section',
        { class: 'card', 'aria-label': 'Totals' },
        h(
          'dl',
          { class: 'facts' },
          h('dt', {}, 'Subtotal'),
          h('dd', {}, money(order.subtotal)),
          h('dt', {}, 'Discount'),
          h('dd', {}, money(order.discount_total)),
          h('dt', {}, 'Shipping'),
          h('dd', {}, money(order.shipping_total)),
          h('dt', {}, 'Tax'),
          h('dd', {}, money(order.tax_total)),
          h('dt', {}, 'Total'),
          h('dd', { 'data-testid': 'order-total' }, money(order.total)),
          h('dt', {}, 'Refunded'),
          h('dd', { 'data-testid': 'order-refunded' }, money(order.refunded_total)),
        ),
      ),
    ),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'lines-title' },
      h('h2', { id: 'lines-title' }, 'Items'),
      table(
        [
          { label: 'Product', render: (l) => l.product_name },
          { label: 'Variant', render: (l) => l.variant_name ?? '—' },
          { label: 'SKU', render: (l) => l.sku ?? '—' },
          { label: 'Qty', num: true, render: (l) => String(l.quantity) },
          { label: 'Unit price', num: true, render: (l) => money(l.unit_price) },
          { label: 'Total', num: true, render: (l) => money(l.line_total) },
          { label: 'Fulfilled', num: true, render: (l) => String(l.fulfilled_quantity) },
          { label: 'Refunded', num: true, render: (l) => String(l.refunded_quantity) },
        ],
        order.lines,
      ),
    ),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'payments-title' },
      h('h2', { id: 'payments-title' }, 'Payments'),
      table(
        [
          { label: 'Provider', render: (p) => p.provider },
          { label: 'Amount', num: true, render: (p) => money(p.amount) },
          { label: 'Status', render: (p) => badge(p.status) },
          { label: 'Created', render: (p) => when(p.created_at) },
          { label: '', render: paymentAction },
        ],
        order.payments,
        'No payments.',
      ),
      order.status !== 'cancelled' &&
        ['unpaid', 'awaiting_payment', 'partially_paid'].includes(order.payment_status)
        ? payForm
        : null,
    ),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'fulfilments-title' },
      h('h2', { id: 'fulfilments-title' }, 'Fulfilments'),
      table(
        [
          { label: 'Created', render: (f) => when(f.created_at) },
          { label: 'Status', render: (f) => badge(f.status) },
          { label: 'Items', num: true, render: (f) => String(f.lines.reduce((n, l) => n + l.quantity, 0)) },
          { label: 'Carrier', render: (f) => f.carrier ?? '—' },
          { label: 'Tracking', render: (f) => f.tracking_number ?? '—' },
          { label: '', render: fulfilmentAction },
        ],
        order.fulfillments,
        'Nothing fulfilled yet.',
      ),
    ),
    anythingToFulfil && order.status !== 'cancelled' ? fulfilForm : null,
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'refunds-title' },
      h('h2', { id: 'refunds-title' }, 'Refunds'),
      table(
        [
          { label: 'Amount', num: true, render: (r) => money(r.amount) },
          { label: 'Status', render: (r) => badge(r.status) },
          { label: 'Reason', render: (r) => r.reason ?? '—' },
          { label: 'Restocked', render: (r) => (r.restock ? 'yes' : 'no') },
          { label: 'Created', render: (r) => when(r.created_at) },
        ],
        order.refunds,
        'No refunds.',
      ),
    ),
    refundable > 0 && order.payments.some((p) => p.status === 'completed') ? refundForm : null,
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'returns-title' },
      h('h2', { id: 'returns-title' }, 'Returns'),
      table(
        [
          { label: 'Requested', render: (r) => when(r.created_at) },
          { label: 'Status', render: (r) => badge(r.status) },
          { label: 'Type', render: (r) => r.type ?? '—' },
          {
            label: 'Items',
            num: true,
            render: (r) => String((r.lines ?? []).reduce((n, l) => n + l.quantity, 0)),
          },
          { label: '', render: returnActions },
        ],
        returns.data,
        'No returns.',
      ),
      returnsError,
    ),
  );
}

// ------------------------------------------------------------------------------------ products

async function productsPage(params) {
  const filters = { q: params.get('q') ?? '', status: params.get('status') ?? '' };
  const list = await api(
    'GET',
    `/v1/admin/products${query({ ...filters, limit: 25, starting_after: params.get('starting_after') })}`,
  );
  return page(
    'Products',
    h(
      'div',
      { class: 'actions' },
      h('a', { href: '#/products/new', class: 'button primary' }, 'New product'),
    ),
    filterForm('products', [
      ['Search', h('input', { type: 'search', name: 'q', value: filters.q, placeholder: 'Name' })],
      ['Status', select('status', choices(['active', 'draft', 'archived'], 'Any status'), filters.status)],
    ]),
    table(
      [
        { label: 'Name', render: (p) => idLink('products', p.id, p.name) },
        { label: 'Status', render: (p) => badge(p.status) },
        { label: 'Variants', num: true, render: (p) => String(p.variants.length) },
        { label: 'Price', num: true, render: (p) => money(p.price) },
        { label: 'Updated', render: (p) => when(p.updated_at) },
      ],
      list.data,
      'No products match.',
    ),
    pager('products', params, list),
  );
}

function optionRow(index) {
  return {
    name: h('input', { name: `option-${index}-name`, placeholder: index === 0 ? 'Size' : 'Colour' }),
    values: h('input', {
      name: `option-${index}-values`,
      placeholder: index === 0 ? 'S, M, L' : 'Red, Blue',
    }),
  };
}

async function newProductPage() {
  await loadStore();
  const name = h('input', { name: 'name', required: true });
  const slug = h('input', { name: 'slug', placeholder: 'derived from the name' });
  const description = h('textarea', { name: 'description' });
  const status = select(
    'status',
    [
      ['active', 'Active'],
      ['draft', 'Draft'],
    ],
    'active',
  );
  const options = [optionRow(0), optionRow(1)];
  const variantsBody = h('tbody', {});
  const variants = [];
  const addVariant = () => {
    const index = variants.length;
    const row = {
      sku: h('input', { name: `variant-${index}-sku`, 'aria-label': `Variant ${index + 1} SKU` }),
      price: h('input', {
        name: `variant-${index}-price`,
        inputmode: 'decimal',
        'aria-label': `Variant ${index + 1} price`,
      }),
      values: [0, 1].map((o) =>
        h('input', {
          name: `variant-${index}-option-${o}`,
          'aria-label': `Variant ${index + 1} option ${o + 1} value`,
        }),
      ),
      stock: h('input', {
        name: `variant-${index}-stock`,
        type: 'number',
        min: '0',
        value: '0',
        'aria-label': `Variant ${index + 1} stock on hand`,
      }),
    };
    variants.push(row);
    variantsBody.appendChild(
      h(
        'tr',
        {},
        h('td', {}, row.sku),
        h('td', {}, row.price),
        row.values.map((v) => h('td', {}, v)),
        h('td', {}, row.stock),
      ),
    );
  };
  addVariant();
  addVariant();
  const addButton = h('button', { type: 'button' }, 'Add a variant');
  addButton.addEventListener('click', addVariant);
  const error = errorSlot();
  const save = h('button', { type: 'submit', class: 'primary' }, 'Create product');
  const form = h(
    'form',
    { 'aria-label': 'New product' },
    h(
      'section',
      { class: 'card' },
      h(
        'div',
        { class: 'row' },
        field('Name', name),
        field('Slug (optional)', slug),
        field('Status', status),
      ),
      field('Description', description),
    ),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'options-title' },
      h('h2', { id: 'options-title' }, 'Options'),
      h(
        'p',
        { class: 'muted' },
        'Up to two options, each with comma-separated values; leave empty for none.',
      ),
      options.map((o, i) =>
        h(
          'div',
          { class: 'row' },
          field(`Option ${i + 1} name`, o.name),
          field(`Option ${i + 1} values`, o.values),
        ),
      ),
    ),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'variants-title' },
      h('h2', { id: 'variants-title' }, 'Variants'),
      h(
        'div',
        { class: 'table-wrap' },
        h(
          'table',
          {},
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              h('th', {}, 'SKU'),
              h('th', {}, `Price (${currency()})`),
              h('th', {}, 'Option 1 value'),
              h('th', {}, 'Option 2 value'),
              h('th', {}, 'Stock on hand'),
            ),
          ),
          variantsBody,
        ),
      ),
      h('div', { class: 'actions' }, addButton),
    ),
    error,
    h('div', { class: 'actions' }, save),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    attempt(error, save, async () => {
      const opts = options
        .map((o, index) => ({
          index,
          name: o.name.value.trim(),
          values: o.values.value
            .split(',')
            .map((v) => v.trim())
            .filter(Boolean),
        }))
        .filter((o) => o.name !== '');
      const body = {
        name: name.value.trim(),
        status: status.value,
        options: opts.map((o) => ({ name: o.name, values: o.values })),
        variants: [],
      };
      if (slug.value.trim()) body.slug = slug.value.trim();
      if (description.value.trim()) body.description = description.value.trim();
      for (const [i, row] of variants.entries()) {
        const filled = row.sku.value.trim() || row.price.value.trim();
        if (!filled) continue;
        const price = toMinor(row.price.value);
        if (!Number.isFinite(price))
          throw new Error(`Variant ${i + 1}: the price must be a number, e.g. 19.99.`);
        const variant = { price, inventory: { on_hand: Number(row.stock.value || 0) } };
        if (row.sku.value.trim()) variant.sku = row.sku.value.trim();
        if (opts.length > 0) {
          variant.options = {};
          for (const o of opts) variant.options[o.name] = row.values[o.index].value.trim();
        }
        body.variants.push(variant);
      }
      const product = await api('POST', '/v1/admin/products', body);
      go(`#/products/${encodeURIComponent(product.id)}`);
    });
  });
  return page('New product', form);
}

async function productPage(id) {
  await loadStore();
  const [product, categories] = await Promise.all([
    api('GET', `/v1/admin/products/${encodeURIComponent(id)}`),
    listAll('/v1/admin/categories')
      .then((data) => {
        const byId = new Map(data.map((c) => [c.id, c]));
        const path = (c) =>
          (c.parent_id && byId.has(c.parent_id) ? `${path(byId.get(c.parent_id))} › ` : '') + c.name;
        return {
          data: categoryTree(data).flat.map(({ category }) => ({ ...category, name: path(category) })),
        };
      })
      .catch((e) => ({ error: e })),
  ]);
  const [translations, regionPrices] = await Promise.all([
    translationsSection('product', id, [
      ['name', 'Name', 'input'],
      ['description', 'Description', 'textarea'],
    ]),
    regionPricesSection(product),
  ]);
  const reload = () => render();
  const chosen = new Set(product.category_ids ?? []);
  const categoryBoxes = (categories?.data ?? []).map((c) => ({
    id: c.id,
    box: h('input', { type: 'checkbox', name: 'category', value: c.id, checked: chosen.has(c.id) }),
    name: c.name,
  }));
  const categoryField = categories.error
    ? h('p', { class: 'error', role: 'alert' }, `Categories: ${categories.error.message}`)
    : categoryBoxes.length === 0
      ? null
      : h(
          'fieldset',
          { class: 'categories' },
          h('legend', {}, 'Categories'),
          categoryBoxes.map((c) => h('label', { class: 'check' }, c.box, ` ${c.name}`)),
        );
  const name = h('input', { name: 'name', value: product.name, required: true });
  const slug = h('input', { name: 'slug', value: product.slug });
  const description = h('textarea', { name: 'description' });
  description.value = product.description ?? '';
  const status = select(
    'status',
    [
      ['active', 'Active'],
      ['draft', 'Draft'],
      ['archived', 'Archived'],
    ],
    product.status,
  );
  const notice = h('p', { class: 'notice', role: 'status' });
  const error = errorSlot();
  const save = h('button', { type: 'submit', class: 'primary' }, 'Save');
  const form = h(
    'form',
    { class: 'card', 'aria-label': 'Product details' },
    h('div', { class: 'row' }, field('Name', name), field('Slug', slug), field('Status', status)),
    field('Description', description),
    categoryField,
    error,
    notice,
    h('div', { class: 'actions' }, save),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    attempt(error, save, async () => {
      const body = {
        name: name.value.trim(),
        slug: slug.value.trim(),
        description: description.value.trim() === '' ? null : description.value.trim(),
        status: status.value,
      };
      if (categoryBoxes.length > 0) {
        // Kept in the order the product had them, new ones after.
        const ticked = new Set(categoryBoxes.filter((c) => c.box.checked).map((c) => c.id));
        body.category_ids = [
          ...(product.category_ids ?? []).filter((c) => ticked.has(c)),
          ...[...ticked].filter((c) => !chosen.has(c)),
        ];
      }
      await api('PATCH', `/v1/admin/products/${encodeURIComponent(id)}`, body);
      notice.textContent = 'Saved.';
    });
  });

  // Images by URL
  const imageUrl = h('input', { name: 'url', type: 'url', placeholder: 'https://…' });
  const imageAlt = h('input', { name: 'alt_text' });
  const imageError = errorSlot();
  const imageButton = h('button', { type: 'submit' }, 'Add image');
  const imageForm = h(
    'form',
    { 'aria-label': 'Add an image' },
    h(
      'div',
      { class: 'row' },
      field('Image URL', imageUrl),
      field('Alt text', imageAlt),
      h('div', { class: 'shrink' }, imageButton),
    ),
    imageError,
  );
  imageForm.addEventListener('submit', (event) => {
    event.preventDefault();
    attempt(imageError, imageButton, async () => {
      const body = { url: imageUrl.value.trim() };
      if (imageAlt.value.trim()) body.alt_text = imageAlt.value.trim();
      await api('POST', `/v1/admin/products/${encodeURIComponent(id)}/images`, body);
      reload();
    });
  });
  const imageFigure = (image) => {
    const remove = actionButton(
      'Remove',
      imageError,
      async () => {
        await api(
          'DELETE',
          `/v1/admin/products/${encodeURIComponent(id)}/images/${encodeURIComponent(image.id)}`,
        );
        reload();
      },
      { danger: true },
    );
    const safe = /^https?:\/\//i.test(image.url);
    return h(
      'figure',
      {},
      safe ? h('img', { src: image.url, alt: image.alt_text ?? '', loading: 'lazy' }) : null,
      h('figcaption', {}, image.alt_text ?? image.url),
      remove,
    );
  };

  // Variants: price and stock
  const variantError = errorSlot();
  const variantRow = (v) => {
    const price = h('input', {
      inputmode: 'decimal',
      value: toMajor(v.price.amount, v.price.currency),
      'aria-label': `Price of ${v.sku ?? v.id}`,
      size: '8',
    });
    const savePrice = actionButton('Save price', variantError, async () => {
      const amount = toMinor(price.value, v.price.currency);
      if (!Number.isFinite(amount)) throw new Error('The price must be a number, e.g. 19.99.');
      await api('PATCH', `/v1/admin/variants/${encodeURIComponent(v.id)}`, { price: amount });
      reload();
    });
    const delta = h('input', {
      type: 'number',
      step: '1',
      value: '0',
      'aria-label': `Stock change of ${v.sku ?? v.id}`,
      size: '5',
    });
    const adjust = actionButton('Adjust stock', variantError, async () => {
      const quantity = Number(delta.value);
      if (!Number.isInteger(quantity) || quantity === 0)
        throw new Error('Enter a whole number of units to add (or subtract, with -).');
      if (!v.inventory) throw new Error('This variant has no inventory record.');
      await api('POST', `/v1/admin/inventory/${encodeURIComponent(v.inventory.id)}/adjust`, {
        quantity,
        reason: 'admin console',
      });
      reload();
    });
    return h(
      'tr',
      {},
      h('td', {}, v.sku ?? '—'),
      h('td', {}, v.option_values.map((o) => o.value).join(' / ') || '—'),
      h('td', {}, h('div', { class: 'row' }, price, h('span', { class: 'shrink' }, savePrice))),
      h(
        'td',
        { class: 'num', 'data-testid': `stock-${v.sku ?? v.id}` },
        v.inventory
          ? `${v.inventory.on_hand ?? '—'} on hand, ${v.inventory.available} available`
          : String(v.stock ?? '—'),
      ),
      h('td', {}, h('div', { class: 'row' }, delta, h('span', { class: 'shrink' }, adjust))),
    );
  };

  return page(
    product.name,
    h('p', {}, link('#/products', '← All products')),
    form,
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'variants-title' },
      h('h2', { id: 'variants-title' }, 'Variants and stock'),
      product.options.length > 0
        ? h(
            'p',
            { class: 'muted' },
            `Options: ${product.options.map((o) => `${o.name} (${o.values.map((v) => v.value).join(', ')})`).join('; ')}`,
          )
        : null,
      variantError,
      product.variants.length === 0
        ? h('p', { class: 'muted' }, 'No variants.')
        : h(
            'div',
            { class: 'table-wrap' },
            h(
              'table',
              {},
              h(
                'thead',
                {},
                h(
                  'tr',
                  {},
                  ['SKU', 'Options', 'Price', 'Stock', 'Adjust'].map((t) => h('th', { scope: 'col' }, t)),
                ),
              ),
              h('tbody', {}, product.variants.map(variantRow)),
            ),
          ),
    ),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'images-title' },
      h('h2', { id: 'images-title' }, 'Images'),
      product.images.length === 0
        ? h('p', { class: 'muted' }, 'No images.')
        : h('div', { class: 'images' }, product.images.map(imageFigure)),
      imageForm,
    ),
    translations,
    optionTranslations(product),
    regionPrices,
  );
}

/**
 * The translations of a product's options and option values (decisions §21: `option` → `name`,
 * `option_value` → `value`): one disclosure per option, its forms loaded when it is opened.
 */
function optionTranslations(product) {
  if (product.options.length === 0) return null;
  const disclosure = (option) => {
    const body = h('div', {}, h('p', { class: 'muted' }, 'Loading…'));
    const details = h(
      'details',
      { class: 'option' },
      h('summary', {}, `${option.name} (${option.values.length} values)`),
      body,
    );
    let loaded = false;
    details.addEventListener('toggle', async () => {
      if (!details.open || loaded) return;
      loaded = true;
      const note = (what) => `${what} on the product is the base text, in the default locale`;
      const sections = await Promise.all([
        translationsSection('option', option.id, [['name', `Option ${option.name}`, 'input']], {
          title: `Option ${option.name}`,
          note: note(`The option name ${option.name}`),
        }),
        ...option.values.map((v) =>
          translationsSection('option_value', v.id, [['value', `${option.name}: ${v.value}`, 'input']], {
            title: `${option.name}: ${v.value}`,
            note: note(`The value ${v.value}`),
          }),
        ),
      ]);
      body.replaceChildren(...sections);
    });
    return details;
  };
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'option-translations-title' },
    h('h2', { id: 'option-translations-title' }, 'Option translations'),
    product.options.map(disclosure),
  );
}

// ------------------------------------------------------------------------------------ customers, discounts, API logs

async function customersPage(params) {
  const q = params.get('q') ?? '';
  const list = await api(
    'GET',
    `/v1/admin/customers${query({ q, limit: 25, starting_after: params.get('starting_after') })}`,
  );
  return page(
    'Customers',
    filterForm('customers', [
      ['Search', h('input', { type: 'search', name: 'q', value: q, placeholder: 'E-mail or name' })],
    ]),
    table(
      [
        { label: 'E-mail', render: (c) => idLink('customers', c.id, c.email) },
        { label: 'Name', render: (c) => [c.first_name, c.last_name].filter(Boolean).join(' ') || '—' },
        { label: 'Status', render: (c) => badge(c.status) },
        { label: 'Orders', num: true, render: (c) => String(c.total_orders) },
        { label: 'Spent', num: true, render: (c) => money(c.total_spent) },
        { label: 'Created', render: (c) => when(c.created_at) },
      ],
      list.data,
      'No customers match.',
    ),
    pager('customers', params, list),
  );
}

function discountValue(d) {
  if (d.value_type === 'percentage') return `${d.value}%`;
  if (d.value_type === 'fixed') return money({ amount: d.value, currency: currency() });
  return '—';
}

async function discountsPage(params) {
  await loadStore();
  const list = await api(
    'GET',
    `/v1/admin/discounts${query({ limit: 25, starting_after: params.get('starting_after') })}`,
  );
  const listError = errorSlot();
  const toggle = (d) =>
    actionButton(d.is_active ? 'Deactivate' : 'Activate', listError, async () => {
      await api('PATCH', `/v1/admin/discounts/${encodeURIComponent(d.id)}`, { is_active: !d.is_active });
      render();
    });
  const name = h('input', { name: 'name', required: true });
  const code = h('input', { name: 'code', placeholder: 'SUMMER10 (empty: applies automatically)' });
  const kind = select(
    'value_type',
    [
      ['percentage', 'Percentage off'],
      ['fixed', `Amount off (${currency()})`],
      ['free_shipping', 'Free shipping'],
    ],
    'percentage',
  );
  const value = h('input', { name: 'value', inputmode: 'decimal', placeholder: '10' });
  const form = actionForm(
    { class: 'card', 'aria-labelledby': 'new-discount-title' },
    { submit: 'Create discount', primary: true },
    [
      h('h2', { id: 'new-discount-title' }, 'New discount'),
      h(
        'div',
        { class: 'row' },
        field('Name', name),
        field('Code', code),
        field('Kind', kind),
        field('Value', value),
      ),
    ],
    async () => {
      const body = { name: name.value.trim(), value_type: kind.value };
      if (code.value.trim()) body.code = code.value.trim();
      else body.type = 'automatic';
      if (kind.value === 'percentage') {
        body.value = Number(value.value.trim());
        if (value.value.trim() === '' || !Number.isFinite(body.value)) {
          throw new Error('The percentage must be a number, e.g. 10.');
        }
      } else if (kind.value === 'fixed') {
        body.value = toMinor(value.value);
        if (!Number.isFinite(body.value)) throw new Error('The amount must be a number, e.g. 5.00.');
      }
      await api('POST', '/v1/admin/discounts', body);
      render();
    },
  );
  return page(
    'Discounts',
    table(
      [
        { label: 'Name', render: (d) => idLink('discounts', d.id, d.name) },
        { label: 'Code', render: (d) => d.code ?? 'automatic' },
        { label: 'Kind', render: (d) => String(d.value_type).replaceAll('_', ' ') },
        { label: 'Value', num: true, render: discountValue },
        { label: 'Active', render: (d) => badge(d.is_active === false ? 'inactive' : 'active') },
        { label: 'Used', num: true, render: (d) => String(d.usage_count ?? 0) },
        { label: '', render: toggle },
      ],
      list.data,
      'No discounts.',
    ),
    listError,
    pager('discounts', params, list),
    form,
  );
}

async function logsPage(params) {
  const filters = {
    method: params.get('method') ?? '',
    status_code: params.get('status_code') ?? '',
    path: params.get('path') ?? '',
  };
  const list = await api(
    'GET',
    `/v1/admin/logs${query({ ...filters, limit: 50, starting_after: params.get('starting_after') })}`,
  );
  return page(
    'API logs',
    filterForm('logs', [
      [
        'Method',
        select('method', choices(['GET', 'POST', 'PATCH', 'PUT', 'DELETE'], 'Any method'), filters.method),
      ],
      [
        'Status',
        h('input', {
          name: 'status_code',
          inputmode: 'numeric',
          value: filters.status_code,
          placeholder: '400',
        }),
      ],
      [
        'Path starts with',
        h('input', { name: 'path', value: filters.path, placeholder: '/v1/admin/orders' }),
      ],
    ]),
    h('p', { class: 'muted' }, `${list.total_count ?? list.data.length} requests (${mode()} mode)`),
    table(
      [
        { label: 'When', render: (l) => idLink('logs', l.id, when(l.created_at)) },
        { label: 'Method', render: (l) => l.method },
        { label: 'Path', render: (l) => l.path },
        { label: 'Status', render: (l) => badge(String(l.status_code), null) },
        { label: 'Time', num: true, render: (l) => `${l.latency_ms} ms` },
      ],
      list.data,
      'No requests logged.',
    ),
    pager('logs', params, list),
  );
}

async function logPage(id) {
  const log = await api('GET', `/v1/admin/logs/${encodeURIComponent(id)}`);
  const body = (value) => h('pre', { class: 'json' }, value === null ? '—' : JSON.stringify(value, null, 2));
  return page(
    `${log.method} ${log.path}`,
    h('p', {}, link('#/logs', '← All API logs')),
    h(
      'section',
      { class: 'card', 'aria-label': 'Request' },
      h(
        'dl',
        { class: 'facts' },
        h('dt', {}, 'Status'),
        h('dd', {}, String(log.status_code)),
        h('dt', {}, 'Time'),
        h('dd', {}, `${log.latency_ms} ms`),
        h('dt', {}, 'When'),
        h('dd', {}, when(log.created_at)),
        h('dt', {}, 'API key'),
        h('dd', {}, log.api_key_id ?? '—'),
        h('dt', {}, 'Address'),
        h('dd', {}, log.ip ?? '—'),
        h('dt', {}, 'User agent'),
        h('dd', {}, log.user_agent ?? '—'),
      ),
    ),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'req-title' },
      h('h2', { id: 'req-title' }, 'Request body'),
      body(log.request_body),
    ),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'res-title' },
      h('h2', { id: 'res-title' }, 'Response body'),
      body(log.response_body),
    ),
  );
}

// ------------------------------------------------------------------------------------ shared pieces of the pages below

/** A second-level navigation (Catalog, Settings): links, the current one marked. */
function subnav(label, items, current) {
  return h(
    'nav',
    { class: 'subnav', 'aria-label': label },
    items.map(([href, text]) => h('a', { href, 'aria-current': href === current ? 'page' : null }, text)),
  );
}

/**
 * A decimal amount typed in `cur` → integer minor units, computed exactly (no float rounding);
 * more decimals than the currency has, or anything not an amount, throws a message naming `label`.
 */
function amountOf(text, cur, label) {
  const digits = digitsOf(cur);
  const match = /^(\d{1,15})(?:[.,](\d+))?$/.exec(String(text).trim());
  if (match === null || (match[2] ?? '').length > digits) {
    const example = digits === 0 ? '1200' : (12.5).toFixed(digits);
    throw new Error(`${label}: enter an amount in ${cur} with at most ${digits} decimals, e.g. ${example}.`);
  }
  return Number(match[1]) * 10 ** digits + Number((match[2] ?? '').padEnd(digits, '0') || '0');
}

/** A whole number ≥ 0 typed by a person, or null when the input is empty (then "no limit"). */
function wholeOrNull(text, label) {
  const trimmed = String(text).trim();
  if (trimmed === '') return null;
  if (!/^\d+$/.test(trimmed)) throw new Error(`${label}: enter a whole number, or leave it empty.`);
  return Number(trimmed);
}

function commaList(text) {
  return String(text)
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
}

/** A card section headed by an h2, which labels it (`id`-title). */
function card(id, title, ...children) {
  return h(
    'section',
    { class: 'card', 'aria-labelledby': `${id}-title` },
    h('h2', { id: `${id}-title` }, title),
    children,
  );
}

/**
 * A button that runs `action`, showing its error in `slot`; with `question`, only once the person
 * said yes to it (window.confirm). `danger` marks it red; other `attrs` go on the button.
 */
function actionButton(label, slot, action, { question, danger = false, ...attrs } = {}) {
  const b = h('button', { type: 'button', class: danger ? 'danger' : null, ...attrs }, label);
  b.addEventListener('click', () => {
    if (question && !confirm(question)) return;
    attempt(slot, b, action);
  });
  return b;
}

/** A red button that asks first (window.confirm), then runs `action` showing its error in `slot`. */
function deleteButton(label, question, slot, action) {
  return actionButton(label, slot, action, { question, danger: true });
}

/**
 * A form whose submit runs `onSubmit` through attempt(): its error under the fields (role=alert),
 * the text it returns as a notice (role=status). The submit button closes the row of fields when
 * `inline`, else it ends the form, followed by `extra(error)` (a delete button sharing the slot).
 */
function actionForm(attrs, { submit, primary = false, inline = false, extra }, children, onSubmit) {
  const error = errorSlot();
  const notice = h('p', { class: 'notice', role: 'status' });
  const button = h('button', { type: 'submit', class: primary ? 'primary' : null }, submit);
  const form = inline
    ? h(
        'form',
        attrs,
        h('div', { class: 'row' }, children, h('div', { class: 'shrink' }, button)),
        error,
        notice,
      )
    : h('form', attrs, children, error, notice, h('div', { class: 'actions' }, button, extra?.(error)));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    notice.textContent = '';
    attempt(error, button, async () => {
      const message = await onSubmit();
      if (typeof message === 'string') notice.textContent = message;
    });
  });
  return form;
}

/**
 * The edit form of a record: `read()` gives the body of every field, and only the fields changed
 * since the form was shown (or last saved) are sent with PATCH to `path`. `after(saved)` runs once
 * saved (its text is the notice; default "Saved.").
 */
function editForm(attrs, children, read, path, { extra, after } = {}) {
  let before = {};
  try {
    before = read();
  } catch {
    // A value the form cannot read back is sent whenever it is read.
  }
  return actionForm(attrs, { submit: 'Save', primary: true, extra }, children, async () => {
    const next = read();
    const body = Object.fromEntries(
      Object.entries(next).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(before[k])),
    );
    if (Object.keys(body).length === 0) return 'Nothing changed.';
    const saved = await api('PATCH', path, body);
    before = next;
    return after ? after(saved) : 'Saved.';
  });
}

/** Keeps a secret the API shows only once (a new API key, a webhook's signing secret) for the next render of `where`. */
function revealOnce(where, label, secret) {
  state.reveal = { where, label, secret };
}

/** The secret kept for `where`, shown this once with a note saying so. */
function revealed(where) {
  const r = state.reveal;
  if (r?.where !== where) return null;
  state.reveal = null;
  return h(
    'div',
    { class: 'secret', role: 'status' },
    h('p', {}, r.label),
    h('code', { 'data-testid': 'secret' }, r.secret),
    h('p', { class: 'muted' }, 'Copy it now: it will not be shown again.'),
  );
}

/** Every item of a list endpoint, 100 a page, at most `pages` pages. */
async function listAll(path, pages = 20) {
  const items = [];
  let after;
  for (let i = 0; i < pages; i++) {
    const sep = path.includes('?') ? '&' : '?';
    const list = await api('GET', `${path}${sep}${query({ limit: 100, starting_after: after }).slice(1)}`);
    items.push(...list.data);
    if (!list.has_more || list.data.length === 0) break;
    after = list.data.at(-1).id;
  }
  return items;
}

/** A failed read shown in place (a member's 403 on an admin-only list is a note, not an alarm). */
function unavailable(error) {
  return error.status === 403
    ? h('p', { class: 'muted' }, error.message)
    : h('p', { class: 'error', role: 'alert' }, error.message);
}

function addressText(a) {
  return a
    ? [
        a.name,
        a.company,
        a.line1,
        a.line2,
        [a.postal_code, a.city].filter(Boolean).join(' '),
        a.state,
        a.country,
      ]
        .filter(Boolean)
        .join(', ')
    : '—';
}

function facts(pairs) {
  return h(
    'dl',
    { class: 'facts' },
    pairs.map(([term, value]) => [h('dt', {}, term), h('dd', {}, value ?? '—')]),
  );
}

/** Datetime-local input text (the browser's zone) ↔ ISO 8601. */
function toLocalInput(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function fromLocalInput(text) {
  return text === '' ? null : new Date(text).toISOString();
}

// ------------------------------------------------------------------------------------ translations

/**
 * The translations of one record (decisions §21): one form per locale other than the default (the
 * base fields are written in the default locale). Saving puts each filled field and deletes each
 * emptied one. `fields`: [[field, label, 'input' | 'textarea']].
 */
async function translationsSection(entityType, entityId, fields, labels = {}) {
  const title = labels.title ?? 'Translations';
  const titleId = `translations-${entityType}-${entityId}`;
  const baseNote = labels.note ?? 'The fields above are the base text, in the default locale';
  const [locales, translations] = await Promise.all([
    api('GET', '/v1/admin/locales').catch((e) => ({ error: e })),
    api('GET', `/v1/admin/translations/${entityType}/${encodeURIComponent(entityId)}`).catch((e) => ({
      error: e,
    })),
  ]);
  // The product's own translations are a card; those of its options sit inside one (labels.title).
  const section = (...children) =>
    h(
      'section',
      { class: labels.title ? 'nested' : 'card', 'aria-labelledby': titleId },
      h(labels.title ? 'h3' : 'h2', { id: titleId }, title),
      ...children,
    );
  if (translations.error) return section(unavailable(translations.error));
  // Only an admin may list the locales (decisions §23) while a member may translate: a member
  // gets the locales that already have translations here, and a form naming a locale's tag.
  const memberView = locales.error?.status === 403;
  if (locales.error && !memberView) return section(unavailable(locales.error));
  const saved = new Map(translations.data.map((t) => [`${t.locale} ${t.field}`, t]));
  const known = memberView
    ? [...new Set(translations.data.map((t) => t.locale))].map((tag) => ({ locale: tag, name: tag }))
    : locales.data;
  const base = known.find((l) => l.is_default);
  const others = known.filter((l) => !l.is_default);
  /** A form for one locale; `locale` null: one whose tag is typed in. */
  const translationForm = (locale) => {
    const tagInput = locale ? null : h('input', { name: 'locale', placeholder: 'fr', required: true });
    const suffix = locale ? ` (${locale.locale})` : '';
    const inputs = fields.map(([name, label, kind]) => {
      const input = h(kind, { name: `${name}-${locale?.locale ?? 'new'}` });
      input.value = locale ? (saved.get(`${locale.locale} ${name}`)?.value ?? '') : '';
      return { name, label, input };
    });
    const error = errorSlot();
    const notice = h('p', { class: 'notice', role: 'status' });
    const button = h('button', { type: 'submit' }, locale ? `Save ${locale.name}` : 'Save translation');
    const form = h(
      'form',
      {
        'aria-label': `${labels.title ? `${labels.title}: t` : 'T'}ranslation into ${locale ? locale.name : 'another locale'}`,
      },
      h(
        labels.title ? 'h4' : 'h3',
        {},
        !locale
          ? 'Another locale'
          : (locale.name === locale.locale ? locale.locale : `${locale.name} (${locale.locale})`) +
              // Translations into an inactive locale are kept and can be prepared; storefronts do not offer it yet.
              (locale.is_active === false ? ' — inactive' : ''),
      ),
      tagInput ? field('Locale tag', tagInput) : null,
      inputs.map((i) => field(`${i.label}${suffix}`, i.input)),
      error,
      notice,
      h('div', { class: 'actions' }, button),
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      notice.textContent = '';
      attempt(error, button, async () => {
        const tag = locale ? locale.locale : tagInput.value.trim();
        for (const { name, input } of inputs) {
          const key = `${tag} ${name}`;
          const value = input.value.trim();
          const before = saved.get(key);
          if (value !== '' && value !== before?.value) {
            const t = await api('PUT', '/v1/admin/translations', {
              entity_type: entityType,
              entity_id: entityId,
              locale: tag,
              field: name,
              value,
            });
            saved.set(key, t);
          } else if (value === '' && before) {
            await api('DELETE', `/v1/admin/translations/${encodeURIComponent(before.id)}`);
            saved.delete(key);
          }
        }
        notice.textContent = 'Saved.';
        if (!locale) render();
      });
    });
    return form;
  };
  const forms = others.map(translationForm);
  if (memberView) {
    return section(
      h(
        'p',
        { class: 'muted' },
        'Only an admin sees the list of locales; a translation into a locale the store does not have is refused.',
      ),
      forms,
      translationForm(null),
    );
  }
  if (known.length === 0) {
    return section(
      h('p', { class: 'muted' }, 'The store has no locales yet: an admin adds them in Settings → Locales.'),
    );
  }
  return section(
    h(
      'p',
      { class: 'muted' },
      base
        ? `${baseNote} ${base.name} (${base.locale}). An empty translation falls back to it.`
        : 'The store has no default locale: the fields above are the base text.',
    ),
    others.length === 0
      ? h('p', { class: 'muted' }, 'No other locale yet: an admin adds one in Settings → Locales.')
      : forms,
  );
}

// ------------------------------------------------------------------------------------ region prices

/**
 * A product's prices per region (decisions §19): for each region, each variant's own price there
 * in the region currency (its decimals), set, replaced or removed. Each region's prices load
 * when its panel opens (all open when there are at most four regions).
 */
async function regionPricesSection(product) {
  const regions = await api('GET', '/v1/admin/regions').catch((e) => ({ error: e }));
  const section = (...children) =>
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'region-prices-title' },
      h('h2', { id: 'region-prices-title' }, 'Region prices'),
      ...children,
    );
  if (regions.error) return section(unavailable(regions.error));
  if (regions.data.length === 0) {
    return section(
      h('p', { class: 'muted' }, 'No regions yet: an admin creates them in Settings → Regions.'),
    );
  }
  const panel = (region) => {
    const cur = region.currency;
    const body = h('div', {}, h('p', { class: 'muted' }, 'Loading…'));
    const error = errorSlot();
    const load = async () => {
      const prices = await Promise.all(
        product.variants.map((v) =>
          api(
            'GET',
            `/v1/admin/regions/${encodeURIComponent(region.id)}/prices${query({ variant_id: v.id })}`,
          ).then((list) => list.data[0] ?? null),
        ),
      );
      body.replaceChildren(
        table(
          [
            { label: 'Variant', render: ({ v }) => variantLabel(v) },
            {
              label: `Region price (${cur})`,
              num: true,
              render: ({ v, p }) =>
                h(
                  'span',
                  { 'data-testid': `region-price-${region.code}-${v.sku ?? v.id}` },
                  p ? money({ amount: p.price, currency: cur }) : 'not set',
                ),
            },
            { label: 'Set', render: ({ v, p }) => priceForm(v, p) },
          ],
          product.variants.map((v, i) => ({ v, p: prices[i] })),
          'No variants.',
          true,
        ),
      );
    };
    const priceForm = (v, p) => {
      const name = `${variantLabel(v)} in ${region.name}`;
      const price = h('input', {
        inputmode: 'decimal',
        size: '8',
        value: p ? toMajor(p.price, cur) : '',
        'aria-label': `Price of ${name} (${cur})`,
      });
      const compare = h('input', {
        inputmode: 'decimal',
        size: '8',
        value: p?.compare_at_price != null ? toMajor(p.compare_at_price, cur) : '',
        placeholder: 'compare at',
        'aria-label': `Compare-at price of ${name} (${cur}, optional)`,
      });
      const save = actionButton('Set price', error, async () => {
        await api('PUT', `/v1/admin/regions/${encodeURIComponent(region.id)}/prices`, {
          variant_id: v.id,
          price: amountOf(price.value, cur, 'Price'),
          compare_at_price:
            compare.value.trim() === '' ? null : amountOf(compare.value, cur, 'Compare-at price'),
        });
        await load();
      });
      const remove = p
        ? deleteButton('Remove', `Remove the price of ${name}?`, error, async () => {
            await api(
              'DELETE',
              `/v1/admin/regions/${encodeURIComponent(region.id)}/prices/${encodeURIComponent(v.id)}`,
            );
            await load();
          })
        : null;
      return h('div', { class: 'row' }, price, compare, h('span', { class: 'actions tight' }, save, remove));
    };
    const details = h(
      'details',
      { class: 'region', open: regions.data.length <= 4 },
      h(
        'summary',
        {},
        `${region.name} — ${cur}, ${digitsOf(cur)} decimals${region.is_active ? '' : ' (inactive)'}`,
      ),
      error,
      body,
    );
    let loaded = false;
    const open = () => {
      if (loaded || !details.open) return;
      loaded = true;
      attempt(error, null, load);
    };
    details.addEventListener('toggle', open);
    if (details.open) open();
    return details;
  };
  return section(
    h(
      'p',
      { class: 'muted' },
      "Without its own price in a region, a variant sells at its price when the region's currency is the store's, else at its price converted with the currency rate (Settings → Regions); with neither it is not sold there.",
    ),
    regions.data.map(panel),
  );
}

function variantLabel(v) {
  const options = (v.option_values ?? []).map((o) => o.value).join(' / ');
  return [v.sku, options].filter(Boolean).join(' — ') || v.id;
}

// ------------------------------------------------------------------------------------ catalog: categories, collections

function catalogNav(current) {
  return subnav(
    'Catalog',
    [
      ['#/catalog/categories', 'Categories'],
      ['#/catalog/collections', 'Collections'],
    ],
    current,
  );
}

/** The categories in tree order (siblings by position, name, id), each with its depth. */
function categoryTree(categories) {
  const children = new Map();
  for (const c of categories) {
    const key = c.parent_id ?? '';
    if (!children.has(key)) children.set(key, []);
    children.get(key).push(c);
  }
  const order = (a, b) =>
    a.position - b.position || (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : 1);
  const flat = [];
  const walk = (parent, depth) => {
    for (const c of (children.get(parent) ?? []).sort(order)) {
      flat.push({ category: c, depth });
      walk(c.id, depth + 1);
    }
  };
  walk('', 0);
  return { flat, children };
}

/** The fields of a category form; `excluded`: ids that cannot be its parent (itself, its subtree). */
function categoryFields(flat, c, excluded = new Set()) {
  const name = h('input', { name: 'name', required: true, value: c?.name ?? '' });
  const slug = h('input', { name: 'slug', value: c?.slug ?? '', placeholder: 'derived from the name' });
  const parent = select(
    'parent_id',
    [
      ['', 'None (top level)'],
      ...flat
        .filter(({ category }) => !excluded.has(category.id))
        .map(({ category, depth }) => [category.id, `${'— '.repeat(depth)}${category.name}`]),
    ],
    c?.parent_id ?? '',
  );
  const position = h('input', {
    name: 'position',
    type: 'number',
    min: '0',
    step: '1',
    value: String(c?.position ?? 0),
  });
  const description = h('textarea', { name: 'description' });
  description.value = c?.description ?? '';
  return {
    nodes: [
      h(
        'div',
        { class: 'row' },
        field('Name', name),
        field(c ? 'Slug' : 'Slug (optional)', slug),
        field('Parent', parent),
        field('Position', position),
      ),
      field('Description', description),
    ],
    read() {
      const body = {
        name: name.value.trim(),
        parent_id: parent.value === '' ? null : parent.value,
        position: wholeOrNull(position.value, 'Position') ?? 0,
        description: description.value.trim() === '' ? null : description.value.trim(),
      };
      if (slug.value.trim()) body.slug = slug.value.trim();
      return body;
    },
  };
}

async function categoriesPage() {
  const categories = await listAll('/v1/admin/categories');
  const { flat, children } = categoryTree(categories);
  // categoryTree sorted each list of children.
  const branch = (parent) => {
    const kids = children.get(parent) ?? [];
    if (kids.length === 0) return null;
    return h(
      'ul',
      { class: 'tree' },
      kids.map((c) =>
        h(
          'li',
          {},
          idLink('catalog/categories', c.id, c.name),
          h('span', { class: 'muted' }, ` /${c.slug}`),
          children.has(c.id) ? branch(c.id) : null,
        ),
      ),
    );
  };
  const fields = categoryFields(flat, null);
  const form = actionForm(
    { class: 'card', 'aria-labelledby': 'new-category-title' },
    { submit: 'Create category', primary: true },
    [h('h2', { id: 'new-category-title' }, 'New category'), fields.nodes],
    async () => {
      await api('POST', '/v1/admin/categories', fields.read());
      render();
    },
  );
  return page(
    'Categories',
    catalogNav('#/catalog/categories'),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'tree-title' },
      h('h2', { id: 'tree-title' }, `All categories (${categories.length})`),
      categories.length === 0 ? h('p', { class: 'muted' }, 'No categories yet.') : branch(''),
    ),
    form,
  );
}

async function categoryPage(id) {
  const [category, categories] = await Promise.all([
    api('GET', `/v1/admin/categories/${encodeURIComponent(id)}`),
    listAll('/v1/admin/categories'),
  ]);
  const { flat, children } = categoryTree(categories);
  const excluded = new Set([id]);
  const exclude = (parent) => {
    for (const c of children.get(parent) ?? []) {
      excluded.add(c.id);
      exclude(c.id);
    }
  };
  exclude(id);
  const fields = categoryFields(flat, category, excluded);
  const path = `/v1/admin/categories/${encodeURIComponent(id)}`;
  const form = editForm(
    { class: 'card', 'aria-label': 'Category details' },
    fields.nodes,
    fields.read,
    path,
    {
      extra: (error) =>
        deleteButton('Delete category', `Delete the category ${category.name}?`, error, async () => {
          await api('DELETE', path);
          go('#/catalog/categories');
        }),
    },
  );
  return page(
    category.name,
    catalogNav('#/catalog/categories'),
    h('p', {}, link('#/catalog/categories', '← All categories')),
    form,
    await translationsSection('category', id, [
      ['name', 'Name', 'input'],
      ['description', 'Description', 'textarea'],
    ]),
  );
}

const RULE_TYPES = [
  ['product_tag', 'Product tag'],
  ['product_type', 'Product type'],
  ['category', 'Category id (with its subcategories)'],
  ['product', 'Product id'],
  ['price', `Price`],
];

/** The rules of an automatic collection: match all or any of up to 20 conditions. */
function rulesEditor(rules) {
  const match = select(
    'match',
    [
      ['all', 'All conditions'],
      ['any', 'Any condition'],
    ],
    rules?.match ?? 'all',
  );
  const list = h('div', {});
  const rows = [];
  let seq = 0;
  const add = (condition) => {
    const n = ++seq;
    const type = select(`condition-${n}-type`, RULE_TYPES, condition?.type ?? 'product_tag');
    const operator = h('select', { name: `condition-${n}-operator` });
    const values = h('input', { name: `condition-${n}-values` });
    const relabel = () => {
      const price = type.value === 'price';
      const keep = operator.value;
      operator.replaceChildren(
        ...(price
          ? [
              ['gte', 'is at least'],
              ['lte', 'is at most'],
            ]
          : [
              ['in', 'is one of'],
              ['not_in', 'is none of'],
            ]
        ).map(([v, label]) => h('option', { value: v }, label)),
      );
      if ([...operator.options].some((o) => o.value === keep)) operator.value = keep;
      values.placeholder = price ? `amount in ${currency()}` : 'comma-separated';
    };
    type.addEventListener('change', relabel);
    relabel();
    if (condition) {
      operator.value = condition.operator;
      values.value =
        condition.type === 'price' ? toMajor(condition.value) : (condition.values ?? []).join(', ');
    }
    const row = { type, operator, values };
    const removeButton = h('button', { type: 'button', class: 'danger' }, 'Remove');
    removeButton.setAttribute('aria-label', `Remove condition ${n}`);
    const el = h(
      'div',
      { class: 'row' },
      field(`Condition ${n}`, type),
      field(`Condition ${n} operator`, operator),
      field(`Condition ${n} values`, values),
      h('div', { class: 'shrink' }, removeButton),
    );
    removeButton.addEventListener('click', () => {
      rows.splice(rows.indexOf(row), 1);
      el.remove();
    });
    rows.push(row);
    list.appendChild(el);
  };
  for (const c of rules?.conditions ?? []) add(c);
  if (rows.length === 0) add(null);
  const addButton = h('button', { type: 'button' }, 'Add a condition');
  addButton.addEventListener('click', () => add(null));
  const fieldset = h(
    'fieldset',
    { class: 'rules' },
    h('legend', {}, 'Rules (products are members while they match)'),
    field('Match', match),
    list,
    h('div', { class: 'actions' }, addButton),
  );
  return {
    element: fieldset,
    read() {
      return {
        match: match.value,
        conditions: rows.map((r, i) =>
          r.type.value === 'price'
            ? {
                type: 'price',
                operator: r.operator.value,
                value: amountOf(r.values.value, currency(), `Condition ${i + 1}`),
              }
            : { type: r.type.value, operator: r.operator.value, values: commaList(r.values.value) },
        ),
      };
    },
  };
}

function collectionFields(c) {
  const name = h('input', { name: 'name', required: true, value: c?.name ?? '' });
  const slug = h('input', { name: 'slug', value: c?.slug ?? '', placeholder: 'derived from the name' });
  const type = select(
    'type',
    [
      ['manual', 'Manual (picked by hand)'],
      ['auto', 'Automatic (by rules)'],
    ],
    c?.type ?? 'manual',
  );
  const position = h('input', {
    name: 'position',
    type: 'number',
    min: '0',
    step: '1',
    value: String(c?.position ?? 0),
  });
  const description = h('textarea', { name: 'description' });
  description.value = c?.description ?? '';
  const rules = rulesEditor(c?.rules ?? null);
  const show = () => {
    rules.element.hidden = type.value !== 'auto';
  };
  type.addEventListener('change', show);
  show();
  return {
    nodes: [
      h(
        'div',
        { class: 'row' },
        field('Name', name),
        field(c ? 'Slug' : 'Slug (optional)', slug),
        field('Type', type),
        field('Position', position),
      ),
      field('Description', description),
      rules.element,
    ],
    read() {
      const body = {
        name: name.value.trim(),
        type: type.value,
        position: wholeOrNull(position.value, 'Position') ?? 0,
        description: description.value.trim() === '' ? null : description.value.trim(),
      };
      if (slug.value.trim()) body.slug = slug.value.trim();
      if (type.value === 'auto') body.rules = rules.read();
      return body;
    },
  };
}

function ruleText(condition) {
  const ops = { in: 'is one of', not_in: 'is none of', gte: 'is at least', lte: 'is at most' };
  const label = RULE_TYPES.find(([v]) => v === condition.type)?.[1] ?? condition.type;
  const what =
    condition.type === 'price'
      ? money({ amount: condition.value, currency: currency() })
      : condition.values.join(', ');
  return `${label} ${ops[condition.operator] ?? condition.operator} ${what}`;
}

async function collectionsPage(params) {
  await loadStore();
  const list = await api(
    'GET',
    `/v1/admin/collections${query({ limit: 25, starting_after: params.get('starting_after') })}`,
  );
  const fields = collectionFields(null);
  const form = actionForm(
    { class: 'card', 'aria-labelledby': 'new-collection-title' },
    { submit: 'Create collection', primary: true },
    [h('h2', { id: 'new-collection-title' }, 'New collection'), fields.nodes],
    async () => {
      const collection = await api('POST', '/v1/admin/collections', fields.read());
      go(`#/catalog/collections/${encodeURIComponent(collection.id)}`);
    },
  );
  return page(
    'Collections',
    catalogNav('#/catalog/collections'),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'collections-title' },
      h('h2', { id: 'collections-title' }, 'All collections'),
      table(
        [
          { label: 'Name', render: (c) => idLink('catalog/collections', c.id, c.name) },
          { label: 'Type', render: (c) => (c.type === 'auto' ? 'automatic' : 'manual') },
          {
            label: 'Products',
            render: (c) =>
              c.type === 'auto'
                ? `${c.rules?.conditions.length ?? 0} rule(s), match ${c.rules?.match ?? 'all'}`
                : String(c.product_ids?.length ?? 0),
          },
          { label: 'Slug', render: (c) => c.slug },
          { label: 'Position', num: true, render: (c) => String(c.position) },
          { label: 'Updated', render: (c) => when(c.updated_at) },
        ],
        list.data,
        'No collections yet.',
      ),
      pager('catalog/collections', params, list),
    ),
    form,
  );
}

async function collectionPage(id) {
  await loadStore();
  const collection = await api('GET', `/v1/admin/collections/${encodeURIComponent(id)}`);
  const path = `/v1/admin/collections/${encodeURIComponent(id)}`;
  const manual = collection.type === 'manual';
  const ids = collection.product_ids ?? [];
  // Manual: every member (up to 250), in the collection's order; automatic: the first 100 that match now.
  const found =
    manual && ids.length === 0
      ? []
      : manual
        ? await listAll(`/v1/admin/products?collection_id=${encodeURIComponent(id)}`, 3)
        : (await api('GET', `/v1/admin/products${query({ collection_id: id, limit: 100 })}`)).data;
  const byId = new Map(found.map((p) => [p.id, p]));
  const members = manual ? ids.map((pid) => byId.get(pid) ?? { id: pid, name: pid }) : found;

  const fields = collectionFields(collection);
  const error = errorSlot();
  const notice = h('p', { class: 'notice', role: 'status' });
  const save = h('button', { type: 'submit', class: 'primary' }, 'Save');
  const remove = deleteButton(
    'Delete collection',
    `Delete the collection ${collection.name}?`,
    error,
    async () => {
      await api('DELETE', path);
      go('#/catalog/collections');
    },
  );
  const form = h(
    'form',
    { class: 'card', 'aria-label': 'Collection details' },
    fields.nodes,
    error,
    notice,
    h('div', { class: 'actions' }, save, remove),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    notice.textContent = '';
    attempt(error, save, async () => {
      const body = fields.read();
      const changed = body.type !== collection.type;
      await api('PATCH', path, body);
      if (changed) render();
      else notice.textContent = 'Saved.';
    });
  });

  const membersError = errorSlot();
  const setMembers = async (next) => {
    await api('PATCH', path, { product_ids: next });
    render();
  };
  const memberActions = (p) => {
    const index = ids.indexOf(p.id);
    const move = (label, to) => {
      const b = h('button', { type: 'button', 'aria-label': `${label}: ${p.name}` }, label);
      b.disabled = to < 0 || to >= ids.length;
      b.addEventListener('click', () =>
        attempt(membersError, b, () => {
          const next = [...ids];
          next.splice(index, 1);
          next.splice(to, 0, p.id);
          return setMembers(next);
        }),
      );
      return b;
    };
    const out = actionButton('Remove', membersError, () => setMembers(ids.filter((x) => x !== p.id)), {
      danger: true,
      'aria-label': `Remove ${p.name}`,
    });
    return h('span', { class: 'actions tight' }, move('Up', index - 1), move('Down', index + 1), out);
  };
  const memberColumns = [
    { label: 'Product', render: (p) => idLink('products', p.id, p.name) },
    { label: 'Status', render: (p) => (p.status ? badge(p.status) : '—') },
    { label: 'Price', num: true, render: (p) => (p.price ? money(p.price) : '—') },
  ];

  // Adding products to a manual collection: a search, each result with an Add button.
  const search = h('input', { type: 'search', name: 'q', placeholder: 'Product name' });
  const searchButton = h('button', { type: 'submit' }, 'Search');
  const results = h('div', {});
  const addForm = h(
    'form',
    { role: 'search', 'aria-label': 'Find products to add' },
    h(
      'div',
      { class: 'row' },
      field('Find a product to add', search),
      h('div', { class: 'shrink' }, searchButton),
    ),
    results,
  );
  addForm.addEventListener('submit', (event) => {
    event.preventDefault();
    attempt(membersError, searchButton, async () => {
      const list = await api('GET', `/v1/admin/products${query({ q: search.value.trim(), limit: 10 })}`);
      results.replaceChildren(
        table(
          [
            ...memberColumns,
            {
              label: '',
              render: (p) => {
                if (ids.includes(p.id)) return h('span', { class: 'muted' }, 'in the collection');
                return actionButton('Add', membersError, () => setMembers([...ids, p.id]), {
                  'aria-label': `Add ${p.name}`,
                });
              },
            },
          ],
          list.data,
          'No product matches.',
        ),
      );
    });
  });

  return page(
    collection.name,
    catalogNav('#/catalog/collections'),
    h('p', {}, link('#/catalog/collections', '← All collections')),
    form,
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'members-title' },
      h('h2', { id: 'members-title' }, manual ? `Products (${ids.length})` : 'Products matching now'),
      manual
        ? null
        : h(
            'p',
            { class: 'muted' },
            `Match ${collection.rules?.match ?? 'all'} of: ${(collection.rules?.conditions ?? []).map(ruleText).join('; ')}. The first 100 are shown.`,
          ),
      membersError,
      table(
        manual ? [...memberColumns, { label: '', render: memberActions }] : memberColumns,
        members,
        manual ? 'No products yet: find one below.' : 'No product matches the rules now.',
      ),
      manual ? addForm : null,
    ),
    await translationsSection('collection', id, [
      ['name', 'Name', 'input'],
      ['description', 'Description', 'textarea'],
    ]),
  );
}

// ------------------------------------------------------------------------------------ settings

function settingsNav(current) {
  return subnav(
    'Settings',
    [
      ['#/settings', 'Store, members, keys, webhooks, locales'],
      ['#/settings/regions', 'Regions and currency rates'],
      ['#/settings/shipping-methods', 'Shipping methods'],
    ],
    current,
  );
}

function adminOnly(title, current) {
  return page(
    title,
    settingsNav(current),
    h('p', { class: 'muted' }, 'Only an admin manages store settings, keys, webhooks and members.'),
  );
}

async function settingsPage() {
  if (state.member.role !== 'admin') return adminOnly('Settings', '#/settings');
  const [store, keys, webhooks, members, locales] = await Promise.all([
    api('GET', '/v1/admin/store'),
    api('GET', '/v1/admin/api-keys?limit=100').catch((e) => ({ error: e })),
    api('GET', '/v1/admin/webhooks?limit=100').catch((e) => ({ error: e })),
    api('GET', '/v1/admin/organization/members?limit=100').catch((e) => ({ error: e })),
    api('GET', '/v1/admin/locales').catch((e) => ({ error: e })),
  ]);
  state.store = store;
  const listOrError = (list, columns) =>
    list.error ? h('p', { class: 'error', role: 'alert' }, list.error.message) : table(columns, list.data);
  return page(
    'Settings',
    settingsNav('#/settings'),
    storeSettingsForm(store),
    membersSection(members, listOrError),
    apiKeysSection(keys, listOrError),
    webhooksSection(webhooks, listOrError),
    localesSection(locales, listOrError),
  );
}

function storeSettingsForm(store) {
  const name = h('input', { name: 'name', value: store.name });
  const timezone = h('input', { name: 'timezone', value: store.timezone });
  return actionForm(
    { class: 'card', 'aria-labelledby': 'store-title' },
    { submit: 'Save', primary: true },
    [
      h('h2', { id: 'store-title' }, 'Store'),
      h('div', { class: 'row' }, field('Name', name), field('Time zone', timezone)),
      h(
        'p',
        { class: 'muted' },
        `Currency ${store.currency}; prices ${store.prices_include_tax ? 'include' : 'exclude'} tax.`,
      ),
    ],
    async () => {
      state.store = await api('PATCH', '/v1/admin/store', {
        name: name.value.trim(),
        timezone: timezone.value.trim(),
      });
      return 'Saved.';
    },
  );
}

function membersSection(members, listOrError) {
  const email = h('input', { type: 'email', name: 'email', required: true });
  const role = select(
    'role',
    [
      ['member', 'Member'],
      ['admin', 'Admin'],
    ],
    'member',
  );
  return card(
    'members',
    'Members',
    listOrError(members, [
      { label: 'E-mail', render: (m) => m.email },
      { label: 'Role', render: (m) => m.role },
      { label: 'Joined', render: (m) => (m.accepted_at ? when(m.accepted_at) : 'invited') },
    ]),
    h(
      'p',
      { class: 'muted' },
      'An invitation is delivered as the member.invited event to the webhooks that name it.',
    ),
    actionForm(
      { 'aria-label': 'Invite a member' },
      { submit: 'Invite', inline: true },
      [field('E-mail', email), field('Role', role)],
      async () => {
        await api('POST', '/v1/admin/organization/members', { email: email.value.trim(), role: role.value });
        render();
      },
    ),
  );
}

/** API keys of the console's mode: created (the key shown once), rotated (the new one shown once), revoked. */
function apiKeysSection(keys, listOrError) {
  const error = errorSlot();
  const name = h('input', { name: 'key_name', required: true, placeholder: 'Storefront' });
  const type = select(
    'key_type',
    [
      ['secret', 'Secret (sk_…): the whole API'],
      ['publishable', 'Publishable (pk_…): the storefront'],
    ],
    'secret',
  );
  const expires = h('input', { name: 'expires_at', type: 'datetime-local' });
  const actions = (k) => {
    const label = k.name ?? `${k.key_prefix}…`;
    return h(
      'span',
      { class: 'actions tight' },
      actionButton(
        'Rotate',
        error,
        async () => {
          const rotated = await api('POST', `/v1/admin/api-keys/${encodeURIComponent(k.id)}/rotate`, {});
          revealOnce('keys', `New secret of the key “${label}”:`, rotated.key);
          render();
        },
        {
          question: `Rotate the key ${label}? It stops working at once; the new key is shown once.`,
          'aria-label': `Rotate ${label}`,
        },
      ),
      actionButton(
        'Revoke',
        error,
        async () => {
          await api('DELETE', `/v1/admin/api-keys/${encodeURIComponent(k.id)}`);
          render();
        },
        {
          question: `Revoke the key ${label}? Requests made with it are refused at once.`,
          danger: true,
          'aria-label': `Revoke ${label}`,
        },
      ),
    );
  };
  return card(
    'keys',
    `API keys (${mode()} mode)`,
    revealed('keys'),
    listOrError(keys, [
      { label: 'Name', render: (k) => k.name ?? '—' },
      { label: 'Type', render: (k) => k.key_type },
      { label: 'Key', render: (k) => `${k.key_prefix}…` },
      { label: 'Last used', render: (k) => when(k.last_used_at) },
      { label: 'Expires', render: (k) => (k.expires_at ? when(k.expires_at) : 'never') },
      { label: 'Created', render: (k) => when(k.created_at) },
      { label: '', render: actions },
    ]),
    error,
    actionForm(
      { 'aria-label': 'Create an API key' },
      { submit: 'Create key', inline: true },
      [field('Key name', name), field('Key type', type), field('Expires (optional)', expires)],
      async () => {
        const created = await api('POST', '/v1/admin/api-keys', {
          name: name.value.trim(),
          key_type: type.value,
          mode: mode(),
          ...(expires.value !== '' && { expires_at: fromLocalInput(expires.value) }),
        });
        revealOnce('keys', `New ${created.key_type} key “${created.name}”:`, created.key);
        render();
      },
    ),
  );
}

/** The fields of a webhook form (docs/contract.md#webhooks); `w` null for a new one. */
function webhookFields(w) {
  const url = h('input', {
    name: 'url',
    type: 'url',
    required: true,
    value: w?.url ?? '',
    placeholder: 'https://example.com/hooks',
  });
  const events = h('input', { name: 'events', required: true, value: (w?.events ?? ['*']).join(', ') });
  const active = h('input', { type: 'checkbox', name: 'is_active', checked: w?.is_active ?? true });
  return {
    nodes: [
      h('div', { class: 'row' }, field('Endpoint URL', url), field('Events', events)),
      h(
        'p',
        { class: 'muted' },
        'Event types separated by commas (order.created, payment.completed, …), or * for every one.',
      ),
      h('label', { class: 'check' }, active, ' Active (receives deliveries)'),
    ],
    read: () => ({ url: url.value.trim(), events: commaList(events.value), is_active: active.checked }),
  };
}

function webhooksSection(webhooks, listOrError) {
  const deliveries = h('div', {});
  const deliveriesButton = (webhook) => {
    const slot = h('span', { class: 'error', role: 'alert' });
    const b = actionButton('Deliveries', slot, () => showDeliveries(deliveries, webhook));
    return h('span', {}, b, slot);
  };
  const fields = webhookFields(null);
  return card(
    'webhooks',
    `Webhooks (${mode()} mode)`,
    revealed('webhooks'),
    listOrError(webhooks, [
      { label: 'URL', render: (w) => idLink('settings/webhooks', w.id, w.url) },
      { label: 'Events', render: (w) => (w.events ?? []).join(', ') },
      { label: 'Active', render: (w) => badge(w.is_active === false ? 'inactive' : 'active') },
      { label: 'Failures', num: true, render: (w) => String(w.consecutive_failures) },
      { label: '', render: deliveriesButton },
    ]),
    deliveries,
    actionForm(
      { 'aria-labelledby': 'new-webhook-title' },
      { submit: 'Create webhook' },
      [h('h3', { id: 'new-webhook-title' }, 'New webhook'), fields.nodes],
      async () => {
        const created = await api('POST', '/v1/admin/webhooks', fields.read());
        revealOnce('webhooks', `The signing secret of ${created.url}:`, created.secret);
        render();
      },
    ),
  );
}

/** A webhook's latest deliveries into `container`; a failed or cancelled one can be retried. */
async function showDeliveries(container, webhook) {
  const base = `/v1/admin/webhooks/${encodeURIComponent(webhook.id)}/deliveries`;
  const deliveries = await api('GET', `${base}?limit=20`);
  const slot = errorSlot();
  const retry = (d) =>
    d.status === 'succeeded' || d.status === 'pending'
      ? null
      : actionButton('Retry', slot, async () => {
          await api('POST', `${base}/${encodeURIComponent(d.id)}/retry`, {});
          await showDeliveries(container, webhook);
        });
  container.replaceChildren(
    h('h3', {}, `Deliveries to ${webhook.url}`),
    slot,
    table(
      [
        { label: 'Event', render: (d) => d.event_type },
        { label: 'Status', render: (d) => badge(d.status) },
        { label: 'Attempts', num: true, render: (d) => String(d.attempt) },
        { label: 'HTTP', num: true, render: (d) => (d.status_code === null ? '—' : String(d.status_code)) },
        { label: 'Error', render: (d) => d.error ?? '' },
        { label: 'When', render: (d) => when(d.updated_at) },
        { label: '', render: retry },
      ],
      deliveries.data,
      'No deliveries yet.',
    ),
  );
}

/** One webhook: edited (only what changed is sent), tested, its secret rotated, deleted; its deliveries. */
async function webhookPage(id) {
  if (state.member.role !== 'admin') return adminOnly('Webhook', '#/settings');
  const path = `/v1/admin/webhooks/${encodeURIComponent(id)}`;
  const webhook = await api('GET', path);
  const fields = webhookFields(webhook);
  const edit = editForm(
    { class: 'card', 'aria-labelledby': 'webhook-edit-title' },
    [h('h2', { id: 'webhook-edit-title' }, 'Edit'), fields.nodes],
    fields.read,
    path,
    {
      after: () => render(),
      extra: (error) =>
        deleteButton(
          'Delete webhook',
          `Delete the webhook ${webhook.url}? Its pending deliveries are cancelled.`,
          error,
          async () => {
            await api('DELETE', path);
            go('#/settings');
          },
        ),
    },
  );
  const eventType = h('input', {
    name: 'event_type',
    placeholder: webhook.events[0] === '*' ? 'order.created' : webhook.events[0],
  });
  const test = actionForm(
    { 'aria-label': 'Send a test event' },
    { submit: 'Send test event', inline: true },
    [field('Event type (optional)', eventType)],
    async () => {
      const type = eventType.value.trim();
      const result = await api('POST', `${path}/test`, type === '' ? {} : { event_type: type });
      const answer =
        result.status_code === null ? 'No answer' : `The endpoint answered ${result.status_code}`;
      const text = `${answer} after ${result.response_time_ms} ms.`;
      if (!result.success) throw new Error(`Test event not delivered: ${text}`);
      return `Test event delivered. ${text}`;
    },
  );
  const secretError = errorSlot();
  const rotate = actionButton(
    'Rotate secret',
    secretError,
    async () => {
      const rotated = await api('POST', `${path}/rotate-secret`, {});
      revealOnce('webhook', 'The new signing secret:', rotated.secret);
      render();
    },
    {
      question:
        'Rotate the signing secret? For 24 hours the previous secret keeps signing beside the new one, which is shown once.',
    },
  );
  const deliveries = h('div', {});
  await showDeliveries(deliveries, webhook).catch((error) => deliveries.replaceChildren(unavailable(error)));
  return page(
    webhook.url,
    settingsNav('#/settings'),
    h('p', {}, link('#/settings', '← Settings')),
    h(
      'section',
      { class: 'card', 'aria-label': 'Webhook' },
      facts([
        ['Status', badge(webhook.is_active ? 'active' : 'inactive')],
        ['Failures in a row', String(webhook.consecutive_failures)],
        ['Created', when(webhook.created_at)],
      ]),
    ),
    edit,
    card(
      'webhook-test',
      'Test and signing secret',
      test,
      revealed('webhook'),
      secretError,
      h('div', { class: 'actions' }, rotate),
    ),
    h('section', { class: 'card', 'aria-label': 'Deliveries' }, deliveries),
  );
}

/**
 * The store's locales (decisions §21): added (as the default, or not), made the default, activated
 * or deactivated in place (`PATCH`: the locale keeps its id and its translations), deleted with
 * their translations. The default locale stays active (the API refuses to deactivate it), so it
 * offers neither "Make default" nor "Deactivate"; an inactive locale is activated before it can
 * be made the default.
 */
function localesSection(locales, listOrError) {
  const error = errorSlot();
  const tag = h('input', { name: 'locale', placeholder: 'fr-FR', required: true });
  const name = h('input', { name: 'name', placeholder: 'Français', required: true });
  const isDefault = h('input', { type: 'checkbox', name: 'is_default' });
  const add = (body) => api('POST', '/v1/admin/locales', body);
  const actions = (l) => {
    const path = `/v1/admin/locales/${encodeURIComponent(l.id)}`;
    const label = `${l.name} (${l.locale})`;
    const patch = (body) => async () => {
      await api('PATCH', path, body);
      render();
    };
    return h(
      'span',
      { class: 'actions tight' },
      l.is_default || !l.is_active
        ? null
        : actionButton('Make default', error, patch({ is_default: true }), {
            question: `Make ${label} the default locale? The records' own text is then read as ${l.locale}; its translations are kept (not shown while it is the default).`,
            'aria-label': `Make ${label} the default`,
          }),
      l.is_default
        ? null
        : l.is_active
          ? actionButton('Deactivate', error, patch({ is_active: false }), {
              question: `Deactivate ${label}? Storefront reads no longer offer it; its translations are kept.`,
              'aria-label': `Deactivate ${label}`,
            })
          : actionButton('Activate', error, patch({ is_active: true }), {
              'aria-label': `Activate ${label}`,
            }),
      deleteButton('Delete', `Delete the locale ${label} and every translation into it?`, error, async () => {
        await api('DELETE', path);
        render();
      }),
    );
  };
  return card(
    'locales',
    `Locales (${mode()} mode)`,
    listOrError(locales, [
      { label: 'Locale', render: (l) => l.locale },
      { label: 'Name', render: (l) => l.name },
      { label: 'Default', render: (l) => (l.is_default ? 'yes' : '') },
      { label: 'Status', render: (l) => badge(l.is_active ? 'active' : 'inactive') },
      { label: '', render: actions },
    ]),
    error,
    actionForm(
      { 'aria-label': 'Add a locale' },
      { submit: 'Add locale', inline: true },
      [
        field('Locale tag', tag),
        field('Locale name', name),
        h('div', { class: 'shrink' }, h('label', { class: 'check' }, isDefault, ' Default locale')),
      ],
      async () => {
        await add({ locale: tag.value.trim(), name: name.value.trim(), is_default: isDefault.checked });
        render();
      },
    ),
  );
}

// ------------------------------------------------------------------------------------ settings: regions, currency rates

/** The fields of a region form (decisions §19); `r` null for a new region. */
function regionFields(r) {
  const name = h('input', { name: 'name', required: true, value: r?.name ?? '' });
  const code = h('input', { name: 'code', required: true, placeholder: 'eu', maxlength: '32' });
  const cur = h('input', {
    name: 'currency',
    required: true,
    maxlength: '3',
    placeholder: 'EUR',
    value: r?.currency ?? '',
    autocapitalize: 'characters',
  });
  const taxRate = h('input', {
    name: 'tax_rate',
    inputmode: 'decimal',
    value: r ? String(r.tax_rate) : '',
    placeholder: r ? '' : `store's (${state.store?.tax_rate ?? 0})`,
  });
  const includesTax = h('input', {
    type: 'checkbox',
    name: 'prices_include_tax',
    checked: r ? r.prices_include_tax : (state.store?.prices_include_tax ?? false),
  });
  const isDefault = h('input', { type: 'checkbox', name: 'is_default', checked: r?.is_default ?? false });
  const isActive = h('input', { type: 'checkbox', name: 'is_active', checked: r?.is_active ?? true });
  return {
    nodes: [
      h(
        'div',
        { class: 'row' },
        field('Name', name),
        r ? null : field('Code (a-z, 0-9, _ and -; fixed)', code),
        field('Currency (ISO 4217)', cur),
        field('Tax rate (%)', taxRate),
      ),
      h(
        'div',
        { class: 'checks' },
        h('label', { class: 'check' }, includesTax, ' Prices include tax'),
        h('label', { class: 'check' }, isDefault, ' Default region'),
        r ? h('label', { class: 'check' }, isActive, ' Active') : null,
      ),
    ],
    read() {
      const body = {
        name: name.value.trim(),
        currency: cur.value.trim().toUpperCase(),
        prices_include_tax: includesTax.checked,
        is_default: isDefault.checked,
      };
      if (!r) body.code = code.value.trim();
      else body.is_active = isActive.checked;
      const rate = taxRate.value.trim();
      if (rate !== '') {
        body.tax_rate = Number(rate);
        if (!/^\d+(\.\d+)?$/.test(rate)) throw new Error('Tax rate: enter a percentage, e.g. 20 or 7.5.');
      }
      return body;
    },
  };
}

async function regionsPage() {
  if (state.member.role !== 'admin') return adminOnly('Regions and currency rates', '#/settings/regions');
  const [store, regions, rates] = await Promise.all([
    api('GET', '/v1/admin/store'),
    api('GET', '/v1/admin/regions'),
    api('GET', '/v1/admin/currency-rates'),
  ]);
  state.store = store;
  const fields = regionFields(null);
  const form = actionForm(
    { 'aria-labelledby': 'new-region-title' },
    { submit: 'Create region', primary: true },
    [h('h3', { id: 'new-region-title' }, 'New region'), fields.nodes],
    async () => {
      await api('POST', '/v1/admin/regions', fields.read());
      render();
    },
  );

  const ratesError = errorSlot();
  const from = h('input', { name: 'from_currency', maxlength: '3', value: store.currency, required: true });
  const to = h('input', { name: 'to_currency', maxlength: '3', placeholder: 'EUR', required: true });
  const rate = h('input', { name: 'rate', inputmode: 'decimal', placeholder: '0.92', required: true });
  const rateForm = actionForm(
    { 'aria-label': 'Set a currency rate' },
    { submit: 'Save rate', inline: true },
    [field('From currency', from), field('To currency', to), field('Rate (1 from = rate to)', rate)],
    async () => {
      const text = rate.value.trim();
      if (!/^\d+(\.\d+)?$/.test(text)) throw new Error('Rate: enter a decimal number, e.g. 0.92.');
      await api('PUT', '/v1/admin/currency-rates', {
        from_currency: from.value.trim().toUpperCase(),
        to_currency: to.value.trim().toUpperCase(),
        rate: Number(text),
      });
      render();
    },
  );
  const rateDelete = (r) =>
    deleteButton('Delete', `Delete the rate ${r.from_currency} → ${r.to_currency}?`, ratesError, async () => {
      await api('DELETE', `/v1/admin/currency-rates/${encodeURIComponent(r.id)}`);
      render();
    });

  return page(
    'Regions and currency rates',
    settingsNav('#/settings/regions'),
    card(
      'regions',
      `Regions (${mode()} mode)`,
      h(
        'p',
        { class: 'muted' },
        `The store sells in ${store.currency}. A region has its own currency, tax rate and tax convention; its prices are set per product (Products → a product → Region prices) or converted with a rate below.`,
      ),
      table(
        [
          { label: 'Name', render: (r) => idLink('settings/regions', r.id, r.name) },
          { label: 'Code', render: (r) => r.code },
          { label: 'Currency', render: (r) => r.currency },
          { label: 'Tax rate', num: true, render: (r) => `${r.tax_rate}%` },
          { label: 'Prices', render: (r) => (r.prices_include_tax ? 'include tax' : 'exclude tax') },
          { label: 'Default', render: (r) => (r.is_default ? 'yes' : '') },
          { label: 'Status', render: (r) => badge(r.is_active ? 'active' : 'inactive') },
        ],
        regions.data,
        'No regions: the store sells with its own settings.',
      ),
      form,
    ),
    card(
      'rates',
      `Currency rates (${mode()} mode)`,
      h(
        'p',
        { class: 'muted' },
        'Prices, discounts and shipping convert from the store currency with the direct rate; saving a pair that exists replaces its rate.',
      ),
      table(
        [
          { label: 'From', render: (r) => r.from_currency },
          { label: 'To', render: (r) => r.to_currency },
          { label: 'Rate', num: true, render: (r) => String(r.rate) },
          { label: 'Updated', render: (r) => when(r.updated_at) },
          { label: '', render: rateDelete },
        ],
        rates.data,
        'No rates.',
      ),
      ratesError,
      rateForm,
    ),
  );
}

async function regionPage(id) {
  if (state.member.role !== 'admin') return adminOnly('Region', '#/settings/regions');
  await loadStore();
  const path = `/v1/admin/regions/${encodeURIComponent(id)}`;
  const region = await api('GET', path);
  const fields = regionFields(region);
  const form = editForm(
    { class: 'card', 'aria-label': 'Region details' },
    [
      facts([
        ['Code', region.code],
        ['Created', when(region.created_at)],
      ]),
      fields.nodes,
    ],
    fields.read,
    path,
    {
      extra: (error) =>
        deleteButton(
          'Delete region',
          `Delete the region ${region.name} and its prices? Its carts fall back to the default region.`,
          error,
          async () => {
            await api('DELETE', path);
            go('#/settings/regions');
          },
        ),
    },
  );
  return page(
    region.name,
    settingsNav('#/settings/regions'),
    h('p', {}, link('#/settings/regions', '← All regions')),
    form,
  );
}

// ------------------------------------------------------------------------------------ settings: shipping methods

/**
 * The fields of a shipping method form (docs/contract.md#shipping-methods); `m` null for a new
 * one. Amounts are typed in the store currency and sent in its minor units (amountOf).
 */
function shippingFields(m) {
  const cur = currency();
  const name = h('input', { name: 'name', required: true, value: m?.name ?? '' });
  const price = h('input', {
    name: 'price',
    inputmode: 'decimal',
    required: true,
    value: m ? toMajor(m.price.amount, cur) : '',
    placeholder: toMajor(490, cur),
  });
  const threshold = h('input', {
    name: 'free_shipping_threshold',
    inputmode: 'decimal',
    value: m?.free_shipping_threshold ? toMajor(m.free_shipping_threshold.amount, cur) : '',
    placeholder: 'never free',
  });
  const position = h('input', {
    name: 'position',
    type: 'number',
    min: '0',
    step: '1',
    value: String(m?.position ?? 0),
  });
  const description = h('textarea', { name: 'description' });
  description.value = m?.description ?? '';
  const active = h('input', { type: 'checkbox', name: 'is_active', checked: m?.is_active ?? true });
  return {
    nodes: [
      h(
        'div',
        { class: 'row' },
        field('Name', name),
        field(`Price (${cur})`, price),
        field(`Free from (${cur}, optional)`, threshold),
        field('Position', position),
      ),
      field('Description (optional)', description),
      h('label', { class: 'check' }, active, ' Active (offered at checkout)'),
    ],
    read() {
      const free = threshold.value.trim();
      return {
        name: name.value.trim(),
        description: description.value.trim() || null,
        price: amountOf(price.value, cur, 'Price'),
        free_shipping_threshold: free === '' ? null : amountOf(free, cur, 'Free from'),
        is_active: active.checked,
        position: wholeOrNull(position.value, 'Position') ?? 0,
      };
    },
  };
}

/** Shipping methods: a member's work too (decisions §23); the API's 403 would show as its message. */
async function shippingMethodsPage() {
  await loadStore();
  const methods = await listAll('/v1/admin/shipping-methods?sort=position');
  const fields = shippingFields(null);
  return page(
    'Shipping methods',
    settingsNav('#/settings/shipping-methods'),
    card(
      'shipping',
      `All shipping methods (${mode()} mode)`,
      h(
        'p',
        { class: 'muted' },
        'Checkout offers the active ones by position. A method is free once the discounted subtotal reaches its "free from" amount.',
      ),
      table(
        [
          { label: 'Name', render: (m) => idLink('settings/shipping-methods', m.id, m.name) },
          { label: 'Price', num: true, render: (m) => money(m.price) },
          {
            label: 'Free from',
            num: true,
            render: (m) => (m.free_shipping_threshold ? money(m.free_shipping_threshold) : 'never'),
          },
          { label: 'Position', num: true, render: (m) => String(m.position) },
          { label: 'Status', render: (m) => badge(m.is_active ? 'active' : 'inactive') },
        ],
        methods,
        'No shipping methods yet.',
        true,
      ),
    ),
    actionForm(
      { class: 'card', 'aria-labelledby': 'new-shipping-title' },
      { submit: 'Create shipping method', primary: true },
      [h('h2', { id: 'new-shipping-title' }, 'New shipping method'), fields.nodes],
      async () => {
        await api('POST', '/v1/admin/shipping-methods', fields.read());
        render();
      },
    ),
  );
}

async function shippingMethodPage(id) {
  await loadStore();
  const path = `/v1/admin/shipping-methods/${encodeURIComponent(id)}`;
  const method = await api('GET', path);
  const fields = shippingFields(method);
  return page(
    method.name,
    settingsNav('#/settings/shipping-methods'),
    h('p', {}, link('#/settings/shipping-methods', '← All shipping methods')),
    editForm(
      { class: 'card', 'aria-label': 'Shipping method details' },
      [facts([['Created', when(method.created_at)]]), fields.nodes],
      fields.read,
      path,
      {
        after: () => render(),
        extra: (error) =>
          deleteButton(
            'Delete shipping method',
            `Delete the shipping method ${method.name}?`,
            error,
            async () => {
              await api('DELETE', path);
              go('#/settings/shipping-methods');
            },
          ),
      },
    ),
    await translationsSection('shipping_method', id, [
      ['name', 'Name', 'input'],
      ['description', 'Description', 'textarea'],
    ]),
  );
}
// ------------------------------------------------------------------------------------ customer and discount detail

/** The fields of PATCH /v1/admin/customers/{id} (docs/contract.md#customers); emptied text is sent as null. */
function customerFields(c) {
  const text = (name, value, attrs = {}) => h('input', { name, value: value ?? '', ...attrs });
  const inputs = {
    first_name: text('first_name', c.first_name),
    last_name: text('last_name', c.last_name),
    email: text('email', c.email, { type: 'email', required: true }),
    phone: text('phone', c.phone, { type: 'tel' }),
    tags: text('tags', c.tags.join(', '), { placeholder: 'vip, wholesale' }),
    status: select(
      'status',
      [
        ['active', 'Active'],
        ['disabled', 'Disabled (cannot sign in)'],
      ],
      c.status,
    ),
    external_id: text('external_id', c.external_id),
    metadata: h('textarea', { name: 'metadata', rows: '3' }),
  };
  inputs.metadata.value = JSON.stringify(c.metadata ?? {}, null, 2);
  const orNull = (k) => inputs[k].value.trim() || null;
  return {
    nodes: [
      h(
        'div',
        { class: 'row' },
        field('First name', inputs.first_name),
        field('Last name', inputs.last_name),
        field('E-mail', inputs.email),
        field('Phone', inputs.phone),
      ),
      h(
        'div',
        { class: 'row' },
        field('Tags (comma-separated)', inputs.tags),
        field('Status', inputs.status),
        field('External id', inputs.external_id),
      ),
      field('Metadata (a JSON object)', inputs.metadata),
    ],
    read() {
      let metadata;
      try {
        metadata = JSON.parse(inputs.metadata.value.trim() || '{}');
      } catch {
        metadata = null;
      }
      if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) {
        throw new Error('Metadata: enter a JSON object, e.g. {"source": "fair"}, or {} for none.');
      }
      return {
        first_name: orNull('first_name'),
        last_name: orNull('last_name'),
        email: inputs.email.value.trim(),
        phone: orNull('phone'),
        tags: commaList(inputs.tags.value),
        status: inputs.status.value,
        external_id: orNull('external_id'),
        metadata,
      };
    },
  };
}

async function customerPage(id, params) {
  const [customer, orders] = await Promise.all([
    api('GET', `/v1/admin/customers/${encodeURIComponent(id)}`),
    api(
      'GET',
      `/v1/admin/orders${query({ customer_id: id, limit: 25, starting_after: params.get('starting_after') })}`,
    ),
  ]);
  const name = [customer.first_name, customer.last_name].filter(Boolean).join(' ');
  const fields = customerFields(customer);
  return page(
    name ? `${name} (${customer.email})` : customer.email,
    h('p', {}, link('#/customers', '← All customers')),
    h(
      'div',
      { class: 'grid2' },
      h(
        'section',
        { class: 'card', 'aria-label': 'Customer' },
        facts([
          ['E-mail', customer.email],
          ['Name', name || '—'],
          ['Phone', customer.phone],
          ['Status', badge(customer.status)],
          ['Signs in', customer.has_password ? 'with a password' : 'no password set'],
          ['Tags', customer.tags.join(', ') || '—'],
          ['External id', customer.external_id],
          ['Customer since', when(customer.created_at)],
        ]),
      ),
      h(
        'section',
        { class: 'card', 'aria-label': 'Totals' },
        facts([
          ['Orders', h('span', { 'data-testid': 'customer-orders' }, String(customer.total_orders))],
          ['Total spent', h('span', { 'data-testid': 'customer-spent' }, money(customer.total_spent))],
        ]),
        h(
          'p',
          { class: 'muted' },
          'Orders that are neither drafts nor cancelled; spent = paid minus refunded, in the store currency.',
        ),
      ),
    ),
    editForm(
      { class: 'card', 'aria-labelledby': 'customer-edit-title' },
      [h('h2', { id: 'customer-edit-title' }, 'Edit'), fields.nodes],
      fields.read,
      `/v1/admin/customers/${encodeURIComponent(id)}`,
      { after: () => render() },
    ),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'addresses-title' },
      h('h2', { id: 'addresses-title' }, 'Addresses'),
      customer.addresses.length === 0
        ? h('p', { class: 'muted' }, 'No saved addresses.')
        : h(
            'ul',
            { class: 'plain' },
            customer.addresses.map((a) => h('li', {}, addressText(a))),
          ),
    ),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'customer-orders-title' },
      h('h2', { id: 'customer-orders-title' }, 'Orders'),
      table(
        [
          { label: 'Order', render: (o) => idLink('orders', o.id, `#${o.number}`) },
          { label: 'Placed', render: (o) => when(o.created_at) },
          { label: 'Status', render: (o) => badge(o.status) },
          { label: 'Payment', render: (o) => badge(o.payment_status) },
          { label: 'Fulfilment', render: (o) => badge(o.fulfillment_status) },
          { label: 'Total', num: true, render: (o) => money(o.total) },
        ],
        orders.data,
        'No orders.',
      ),
      pager(`customers/${encodeURIComponent(id)}`, params, orders),
    ),
  );
}

const DISCOUNT_CONDITIONS = ['product', 'variant', 'product_tag', 'customer', 'customer_tag', 'region'];

async function discountPage(id) {
  await loadStore();
  const path = `/v1/admin/discounts/${encodeURIComponent(id)}`;
  const d = await api('GET', path);
  const cur = currency();
  const amountInput = (name, m) =>
    h('input', {
      name,
      inputmode: 'decimal',
      value: m ? toMajor(m.amount, m.currency) : '',
      placeholder: 'none',
    });
  const inputs = {
    name: h('input', { name: 'name', required: true, value: d.name }),
    code: h('input', { name: 'code', value: d.code ?? '' }),
    value_type: select(
      'value_type',
      [
        ['percentage', 'Percentage off'],
        ['fixed', `Amount off (${cur})`],
        ['free_shipping', 'Free shipping'],
      ],
      d.value_type,
    ),
    value: h('input', {
      name: 'value',
      inputmode: 'decimal',
      value:
        d.value_type === 'fixed'
          ? toMajor(d.value, cur)
          : d.value_type === 'percentage'
            ? String(d.value)
            : '',
    }),
    target: select(
      'target',
      [
        ['order', 'The order'],
        ['line_item', 'Each line'],
        ['shipping', 'Shipping'],
      ],
      d.target,
    ),
    usage_limit: h('input', {
      name: 'usage_limit',
      inputmode: 'numeric',
      value: d.usage_limit ?? '',
      placeholder: 'no limit',
    }),
    per_customer_limit: h('input', {
      name: 'per_customer_limit',
      inputmode: 'numeric',
      value: d.per_customer_limit ?? '',
      placeholder: 'no limit',
    }),
    minimum_amount: amountInput('minimum_amount', d.minimum_amount),
    maximum_discount: amountInput('maximum_discount', d.maximum_discount),
    starts_at: h('input', { name: 'starts_at', type: 'datetime-local', value: toLocalInput(d.starts_at) }),
    ends_at: h('input', { name: 'ends_at', type: 'datetime-local', value: toLocalInput(d.ends_at) }),
    description: h('textarea', { name: 'description' }),
  };
  inputs.description.value = d.description ?? '';
  const active = h('input', { type: 'checkbox', name: 'is_active', checked: d.is_active });
  // Only the fields changed are sent, so a rule between fields is judged on what the person changed.
  const initial = Object.fromEntries(Object.entries(inputs).map(([k, el]) => [k, el.value]));
  const read = () => {
    const body = {};
    const changed = (k) => inputs[k].value !== initial[k];
    if (changed('name')) body.name = inputs.name.value.trim();
    if (changed('description')) body.description = inputs.description.value.trim() || null;
    if (changed('code')) body.code = inputs.code.value.trim();
    if (changed('value_type')) body.value_type = inputs.value_type.value;
    if ((changed('value') || changed('value_type')) && inputs.value_type.value !== 'free_shipping') {
      const text = inputs.value.value.trim();
      if (inputs.value_type.value === 'fixed') body.value = amountOf(text, cur, 'Value');
      else {
        body.value = Number(text);
        if (text === '' || !Number.isFinite(body.value))
          throw new Error('Value: enter a percentage, e.g. 10.');
      }
    }
    if (changed('target')) body.target = inputs.target.value;
    for (const k of ['usage_limit', 'per_customer_limit']) {
      if (changed(k))
        body[k] = wholeOrNull(inputs[k].value, k === 'usage_limit' ? 'Usage limit' : 'Per customer');
    }
    for (const k of ['minimum_amount', 'maximum_discount']) {
      if (changed(k)) {
        const text = inputs[k].value.trim();
        body[k] =
          text === ''
            ? null
            : amountOf(text, cur, k === 'minimum_amount' ? 'Minimum order' : 'Maximum discount');
      }
    }
    for (const k of ['starts_at', 'ends_at']) if (changed(k)) body[k] = fromLocalInput(inputs[k].value);
    if (active.checked !== d.is_active) body.is_active = active.checked;
    return body;
  };
  const error = errorSlot();
  const notice = h('p', { class: 'notice', role: 'status' });
  const save = h('button', { type: 'submit', class: 'primary' }, 'Save');
  const remove = deleteButton('Delete discount', `Delete the discount ${d.name}?`, error, async () => {
    await api('DELETE', path);
    go('#/discounts');
  });
  const form = h(
    'form',
    { class: 'card', 'aria-labelledby': 'discount-edit-title' },
    h('h2', { id: 'discount-edit-title' }, 'Edit'),
    h(
      'div',
      { class: 'row' },
      field('Name', inputs.name),
      d.type === 'code' ? field('Code', inputs.code) : null,
      field('Kind', inputs.value_type),
      field(`Value (% or ${cur})`, inputs.value),
      field('Applies to', inputs.target),
    ),
    h(
      'div',
      { class: 'row' },
      field('Usage limit', inputs.usage_limit),
      field('Uses per customer', inputs.per_customer_limit),
      field(`Minimum order (${cur})`, inputs.minimum_amount),
      field(`Maximum discount (${cur})`, inputs.maximum_discount),
    ),
    h('div', { class: 'row' }, field('Starts', inputs.starts_at), field('Ends', inputs.ends_at)),
    field('Description', inputs.description),
    h('label', { class: 'check' }, active, ' Active'),
    error,
    notice,
    h('div', { class: 'actions' }, save, remove),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    notice.textContent = '';
    attempt(error, save, async () => {
      const body = read();
      if (Object.keys(body).length === 0) {
        notice.textContent = 'Nothing changed.';
        return;
      }
      await api('PATCH', path, body);
      render();
    });
  });

  // Conditions: the list is replaced whole by PATCH.
  const conditionsError = errorSlot();
  const plain = (c) => ({ type: c.type, operator: c.operator, values: c.values });
  const setConditions = async (next) => {
    await api('PATCH', path, { conditions: next });
    render();
  };
  const conditionRemove = (c) =>
    actionButton(
      'Remove',
      conditionsError,
      () => setConditions(d.conditions.filter((x) => x.id !== c.id).map(plain)),
      { danger: true, 'aria-label': `Remove the ${c.type} condition` },
    );
  const cType = select(
    'condition_type',
    DISCOUNT_CONDITIONS.map((t) => [t, t.replaceAll('_', ' ')]),
    'product',
  );
  const cOperator = select(
    'condition_operator',
    [
      ['in', 'is one of'],
      ['not_in', 'is none of'],
    ],
    'in',
  );
  const cValues = h('input', { name: 'condition_values', placeholder: 'ids or tags, comma-separated' });
  const cButton = h('button', { type: 'submit' }, 'Add condition');
  const conditionForm = h(
    'form',
    { 'aria-label': 'Add a condition' },
    h(
      'div',
      { class: 'row' },
      field('Condition', cType),
      field('Operator', cOperator),
      field('Values', cValues),
      h('div', { class: 'shrink' }, cButton),
    ),
  );
  conditionForm.addEventListener('submit', (event) => {
    event.preventDefault();
    attempt(conditionsError, cButton, () =>
      setConditions([
        ...d.conditions.map(plain),
        { type: cType.value, operator: cOperator.value, values: commaList(cValues.value) },
      ]),
    );
  });

  return page(
    d.name,
    h('p', {}, link('#/discounts', '← All discounts')),
    h(
      'section',
      { class: 'card', 'aria-label': 'Discount' },
      facts([
        ['Code', d.code ?? 'none (applies automatically)'],
        ['Type', d.type],
        ['Value', discountValue(d)],
        ['Applies to', d.target.replaceAll('_', ' ')],
        ['Status', badge(d.is_active ? 'active' : 'inactive')],
        ['Used', `${d.usage_count}${d.usage_limit === null ? '' : ` of ${d.usage_limit}`}`],
        ['Uses per customer', d.per_customer_limit === null ? 'no limit' : String(d.per_customer_limit)],
        ['Minimum order', d.minimum_amount ? money(d.minimum_amount) : 'none'],
        ['Maximum discount', d.maximum_discount ? money(d.maximum_discount) : 'none'],
        ['Starts', d.starts_at ? when(d.starts_at) : 'at once'],
        ['Ends', d.ends_at ? when(d.ends_at) : 'never'],
        ['Description', d.description],
        ['Created', when(d.created_at)],
      ]),
    ),
    form,
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'conditions-title' },
      h('h2', { id: 'conditions-title' }, 'Conditions'),
      h('p', { class: 'muted' }, 'The discount applies only when every condition holds.'),
      table(
        [
          { label: 'Condition', render: (c) => c.type.replaceAll('_', ' ') },
          { label: 'Operator', render: (c) => (c.operator === 'in' ? 'is one of' : 'is none of') },
          { label: 'Values', render: (c) => c.values.join(', ') },
          { label: '', render: conditionRemove },
        ],
        d.conditions,
        'No conditions: it applies to every cart.',
      ),
      conditionsError,
      conditionForm,
    ),
  );
}

// ------------------------------------------------------------------------------------ router

async function loadStore() {
  if (state.store === null) state.store = await api('GET', '/v1/admin/store').catch(() => null);
}

let renderCount = 0;
let shownHash = null;

async function render() {
  const current = ++renderCount;
  const { parts, params } = parseHash();
  const [section = 'dashboard', id, sub] = parts;
  if (section === 'accept-invite') {
    root.replaceChildren(acceptInvitePage(params));
    return;
  }
  if (state.member === null) {
    try {
      const session = await api('GET', '/v1/admin/session');
      state.member = session.member;
      state.hosted = session.expires_at === null;
      await chooseModeOnce();
    } catch {
      if (current !== renderCount) return;
      root.replaceChildren(signInPage());
      document.title = 'Sign in · Cartwright admin';
      return;
    }
  }
  if (section === 'sign-in') {
    go('#/dashboard');
    return;
  }
  const known = NAV.some(([key]) => key === section);
  const pages = {
    dashboard: () => dashboardPage(params),
    orders: () => (id ? orderPage(id) : ordersPage(params)),
    products: () => (id === 'new' ? newProductPage() : id ? productPage(id) : productsPage(params)),
    catalog: () =>
      id === 'collections'
        ? sub
          ? collectionPage(sub)
          : collectionsPage(params)
        : sub
          ? categoryPage(sub)
          : categoriesPage(),
    customers: () => (id ? customerPage(id, params) : customersPage(params)),
    discounts: () => (id ? discountPage(id) : discountsPage(params)),
    logs: () => (id ? logPage(id) : logsPage(params)),
    settings: () => {
      if (id === 'regions') return sub ? regionPage(sub) : regionsPage();
      if (id === 'shipping-methods') return sub ? shippingMethodPage(sub) : shippingMethodsPage();
      if (id === 'webhooks' && sub) return webhookPage(sub);
      return settingsPage();
    },
  };
  let content;
  try {
    content = known ? await pages[section]() : page('Not found', h('p', {}, 'This page does not exist.'));
  } catch (error) {
    if (state.member === null) return;
    content = page('Something went wrong', h('p', { class: 'error', role: 'alert' }, error.message));
  }
  if (current !== renderCount) return;
  root.replaceChildren(...layout(known ? section : null, content));
  document.title = `${root.querySelector('h1')?.textContent ?? 'Admin'} · Cartwright admin`;
  // A new page takes the focus (screen readers read it from its heading); a page shown again after
  // an action keeps it where it was.
  if (shownHash !== location.hash) {
    window.scrollTo(0, 0);
    root.querySelector('main')?.focus({ preventScroll: true });
  }
  shownHash = location.hash;
}

window.addEventListener('hashchange', render);
render();
