// Explorer page: the search form, the results with their constraint
// statuses, paging, and the product view with every retailer's offer.
//
// Every value that comes from the API (titles, brands, descriptions, retailer
// names) is put into the page as text: nodes are built with createElement and
// textContent, never from HTML strings. Links to retailers are only made for
// http(s) URLs.

const API_SEARCH = '/api/explorer/search';
const API_PRODUCT = '/api/explorer/product/';
const API_HEALTH = '/api/health';

const $ = (id) => document.getElementById(id);
const form = $('search-form');
const PAGE_SIZE = Number(form.dataset.limit) || 20;
const TEXT_FIELDS = ['query', 'category', 'brand', 'min_price', 'max_price', 'sort', 'product_type'];
const ERROR_FIELDS = ['constraints', 'min_price', 'max_price', 'category', 'brand', 'sort', 'product_type', 'query', 'offset'];

// The spec requirements, in the attribute table's order, as the form lists
// them; display says how values are written (served from the table).
const ATTRS = [...form.querySelectorAll('.req')].map((row) => ({
  name: row.dataset.name,
  label: row.dataset.label,
  unit: row.dataset.unit,
  display: JSON.parse(row.dataset.display || '{}'),
  row,
  op: row.querySelector('.req-op'),
  value: row.querySelector('.req-value'),
  value2: row.querySelector('.req-value2'),
  and: row.querySelector('.req-and'),
}));
const ATTR = Object.fromEntries(ATTRS.map((a) => [a.name, a]));

const gbp = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });
const count = new Intl.NumberFormat('en-GB');
const num = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 2 });
const clock = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit' });
const dateTime = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });

const AVAILABILITY = { in_stock: 'In stock', low_stock: 'Low stock', out_of_stock: 'Out of stock' };
const STATUS_TEXT = {
  confirmed: 'Confirmed: two or more retailers agree',
  inferred: "Inferred: one retailer's title",
  conflicting: 'Conflicting: retailers disagree',
};

// ---------------------------------------------------------------- DOM helpers

// el builds an element; props are attributes (plus class and text), children
// are nodes or strings (inserted as text).
function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') node.className = v;
    else if (k === 'text') node.textContent = v;
    else node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    node.append(c instanceof Node ? c : String(c));
  }
  return node;
}

// safeURL returns url when it is an absolute http(s) URL (https only when
// httpsOnly), otherwise null.
function safeURL(url, httpsOnly = false) {
  if (typeof url !== 'string' || url === '') return null;
  try {
    const u = new URL(url);
    if (u.protocol === 'https:' || (!httpsOnly && u.protocol === 'http:')) return u.href;
  } catch {
    // not a URL
  }
  return null;
}

// externalLink opens a retailer page in a new tab; a URL that is not
// http(s) gives no link.
function externalLink(url, text, label, cls) {
  const href = safeURL(url);
  if (!href) return el('span', { class: 'no-link' }, 'No link');
  return el('a', { href, class: cls, target: '_blank', rel: 'noopener noreferrer', 'aria-label': label }, text, el('span', { class: 'ext', 'aria-hidden': 'true' }, ' ↗'));
}

// thumbnail is a product image from a retailer's https host; it gives way
// to a neutral placeholder when the image cannot be loaded.
function thumbnail(url, cls) {
  const box = el('div', { class: `thumb ${cls}` });
  const src = safeURL(url, true);
  if (src) {
    const img = el('img', { src, alt: '', loading: 'lazy', decoding: 'async', referrerpolicy: 'no-referrer' });
    img.addEventListener('error', () => img.remove(), { once: true });
    box.append(img);
  }
  return box;
}

function plural(n, one, many) {
  return `${count.format(n)} ${n === 1 ? one : many}`;
}

function show(node, visible) {
  node.hidden = !visible;
}

// ----------------------------------------------------------------- formatting

// formatValue writes a value of an attribute as the table's display rule
// says: a named value by its name ("2160p (4K)", "Wi-Fi 6E"), a whole
// multiple in a larger unit ("1 TB"), otherwise prefix, number and suffix.
function formatValue(name, v) {
  const d = ATTR[name] ? ATTR[name].display : {};
  const named = d.named && d.named[String(v)];
  if (named) return named;
  const big = d.larger;
  if (big && v >= big.factor && v % big.step === 0) return `${num.format(v / big.factor)}${big.suffix}`;
  return `${d.prefix || ''}${num.format(v)}${d.suffix || ''}`;
}

function label(name) {
  return ATTR[name] ? ATTR[name].label : name;
}

// describeBound turns {gte: 16} into "at least 16 GB".
function describeBound(name, b) {
  const f = (v) => formatValue(name, v);
  if (b.eq !== undefined) return `exactly ${f(b.eq)}`;
  if (b.gte !== undefined && b.lte !== undefined) return `between ${f(b.gte)} and ${f(b.lte)}`;
  if (b.gte !== undefined) return `at least ${f(b.gte)}`;
  if (b.lte !== undefined) return `at most ${f(b.lte)}`;
  return 'any';
}

function constraintNames(constraints) {
  const names = Object.keys(constraints || {});
  return ATTRS.map((a) => a.name).filter((n) => names.includes(n)).concat(names.filter((n) => !ATTR[n]));
}

// statedValues lists the values retailers state for an attribute.
function statedValues(attr) {
  if (!attr) return [];
  if (attr.status === 'conflicting') return (attr.values || []).map((v) => v.value);
  return attr.value === undefined ? [] : [attr.value];
}

function timeEl(iso, fmt) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return el('span', {}, '');
  return el('time', { datetime: iso }, fmt.format(d));
}

// -------------------------------------------------------------------- network

class APIError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

class RateLimited extends Error {
  constructor(resetAt, limit) {
    super('Rate limit exceeded');
    this.resetAt = resetAt;
    this.limit = limit;
  }
}

const budget = $('budget');

// noteBudget shows the requests left this hour from the rate-limit headers.
function noteBudget(headers) {
  const limit = headers.get('X-RateLimit-Limit');
  const left = headers.get('X-RateLimit-Remaining');
  const reset = Number(headers.get('X-RateLimit-Reset'));
  if (!budget || limit === null || left === null) return;
  const parts = [`Requests left this hour from your address: ${left} of ${limit}`];
  if (reset > 0) parts.push(` (the count resets at ${clock.format(new Date(reset * 1000))})`);
  budget.textContent = `${parts.join('')}.`;
  show(budget, true);
}

let inflight = null;

// getJSON fetches an explorer endpoint; it throws RateLimited on 429 and
// APIError with the API's message on other failures. A newer call aborts
// the one in flight.
async function getJSON(url) {
  if (inflight) inflight.abort();
  const ctrl = new AbortController();
  inflight = ctrl;
  try {
    const res = await fetch(url, { headers: { Accept: 'application/json' }, signal: ctrl.signal });
    noteBudget(res.headers);
    let body = null;
    try {
      body = await res.json();
    } catch {
      // not JSON
    }
    if (res.status === 429) throw new RateLimited(body && body.resetAt, res.headers.get('X-RateLimit-Limit'));
    if (!res.ok) throw new APIError(res.status, (body && body.error) || `The server answered ${res.status}.`);
    return body;
  } finally {
    if (inflight === ctrl) inflight = null;
  }
}

// Answers are kept for the page's lifetime so that going back to results
// or reopening a product does not spend the hourly budget again.
const cache = new Map();
const CACHE_SIZE = 40;

async function cachedJSON(url) {
  if (cache.has(url)) return cache.get(url);
  const body = await getJSON(url);
  cache.set(url, body);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value);
  return body;
}

// ----------------------------------------------------------------------- form

const filters = $('filters');
const filterCount = $('filter-count');
const formError = $('form-error');

function setOp(a, op) {
  a.op.value = op;
  a.value.disabled = !op;
  a.value2.disabled = op !== 'range';
  show(a.value2, op === 'range');
  show(a.and, op === 'range');
  a.row.classList.toggle('active', !!op);
  a.value.setAttribute('aria-label', op === 'range' ? `${a.label}: at least` : a.label);
}

for (const a of ATTRS) {
  a.op.addEventListener('change', () => {
    setOp(a, a.op.value);
    if (a.op.value) a.value.focus();
    updateFilterCount();
  });
  setOp(a, '');
}

// readForm returns the search parameters the form describes, or the
// problems to fix before searching.
function readForm() {
  const params = new URLSearchParams();
  const errors = {};
  for (const name of TEXT_FIELDS) {
    const input = form.elements[name];
    if (input.validity && input.validity.badInput) {
      errors[name] = 'Enter a plain number of pounds, e.g. 500.';
      continue;
    }
    const v = input.value.trim();
    if (v !== '' && !(name === 'sort' && v === 'relevance')) params.set(name, v);
  }
  const constraints = {};
  for (const a of ATTRS) {
    const op = a.op.value;
    if (!op) continue;
    const unit = a.unit ? ` in ${a.unit}` : '';
    const inputs = op === 'range' ? [a.value, a.value2] : [a.value];
    if (inputs.some((i) => i.validity.badInput || i.value.trim() === '')) {
      errors[a.name] = `Enter a number${unit} for ${a.label}, or set it to Any.`;
      continue;
    }
    const [v1, v2] = inputs.map((i) => Number(i.value));
    constraints[a.name] = op === 'range' ? { gte: v1, lte: v2 } : { [op]: v1 };
  }
  if (Object.keys(constraints).length > 0) params.set('constraints', JSON.stringify(constraints));
  return { params, errors };
}

// fillForm shows a search's parameters in the form.
function fillForm(params) {
  for (const name of TEXT_FIELDS) {
    const input = form.elements[name];
    input.value = params.get(name) || (name === 'sort' ? 'relevance' : '');
  }
  let constraints = {};
  try {
    constraints = JSON.parse(params.get('constraints') || '{}') || {};
  } catch {
    constraints = {};
  }
  for (const a of ATTRS) {
    const b = constraints[a.name];
    let op = '';
    let v1 = '';
    let v2 = '';
    if (b && typeof b === 'object') {
      if (b.gte !== undefined && b.lte !== undefined) [op, v1, v2] = ['range', b.gte, b.lte];
      else if (b.eq !== undefined) [op, v1] = ['eq', b.eq];
      else if (b.gte !== undefined) [op, v1] = ['gte', b.gte];
      else if (b.lte !== undefined) [op, v1] = ['lte', b.lte];
    }
    setOp(a, op);
    a.value.value = v1;
    a.value2.value = v2;
  }
  updateFilterCount();
}

function updateFilterCount() {
  let n = 0;
  for (const name of ['category', 'brand', 'min_price', 'max_price', 'product_type']) {
    if (form.elements[name].value.trim() !== '') n++;
  }
  if (form.elements.sort.value !== 'relevance') n++;
  n += ATTRS.filter((a) => a.op.value).length;
  filterCount.textContent = n === 1 ? '1 active' : `${n} active`;
  show(filterCount, n > 0);
}

form.addEventListener('input', updateFilterCount);
form.addEventListener('change', updateFilterCount);

function clearErrors() {
  formError.replaceChildren();
  show(formError, false);
  for (const p of form.querySelectorAll('.field-error')) {
    p.textContent = '';
    show(p, false);
  }
  for (const i of form.querySelectorAll('[aria-invalid]')) i.removeAttribute('aria-invalid');
}

// fieldError shows a message under a field and marks its inputs invalid.
function fieldError(name, message) {
  const p = $(`err-${name}`);
  if (!p) return false;
  p.textContent = message;
  show(p, true);
  const inputs = ATTR[name] ? [ATTR[name].value, ATTR[name].value2] : [form.elements[name]].filter(Boolean);
  for (const i of inputs) if (!i.hidden) i.setAttribute('aria-invalid', 'true');
  if (name !== 'query' && !filters.open) filters.open = true;
  return true;
}

// errorField guesses which field an API message is about: the parameter or
// attribute named earliest in it.
function errorField(message) {
  let best = null;
  let at = Infinity;
  for (const name of [...ATTRS.map((a) => a.name), ...ERROR_FIELDS]) {
    const m = new RegExp(`(^|[^a-z_])${name}([^a-z_]|$)`).exec(message);
    if (m && m.index < at) {
      best = name;
      at = m.index;
    }
  }
  return best === 'offset' ? null : best;
}

const FIELD_LABELS = {
  constraints: 'Spec requirements', min_price: 'Price', max_price: 'Price', category: 'Category',
  brand: 'Brand', sort: 'Sort by', product_type: 'Show', query: 'Search words',
};

// showFormError shows an API message next to the field it is about, with a
// pointer to it at the top of the form (or the whole message there when no
// field is named).
function showFormError(message) {
  const target = errorField(message);
  if (target && fieldError(target, message)) {
    const name = FIELD_LABELS[target] || label(target);
    const link = el('a', { href: `#err-${target}` }, name);
    link.addEventListener('click', (ev) => {
      ev.preventDefault();
      const p = $(`err-${target}`);
      p.scrollIntoView({ block: 'center' });
      const input = ATTR[target] ? ATTR[target].value : form.elements[target];
      if (input && !input.disabled && input.focus) input.focus();
    });
    formError.replaceChildren(el('strong', {}, 'The search could not run. '), 'See ', link, '.');
  } else {
    formError.replaceChildren(el('strong', {}, 'The search could not run. '), message);
  }
  show(formError, true);
}

form.addEventListener('submit', (ev) => {
  ev.preventDefault();
  clearErrors();
  const { params, errors } = readForm();
  const names = Object.keys(errors);
  if (names.length > 0) {
    for (const n of names) fieldError(n, errors[n]);
    formError.replaceChildren(el('strong', {}, 'Check the highlighted fields. '), errors[names[0]]);
    show(formError, true);
    formError.focus();
    return;
  }
  if (narrow.matches) filters.open = false;
  revealResults = true;
  navigate(`#/search?${params}`);
});

$('clear').addEventListener('click', () => {
  form.reset();
  for (const a of ATTRS) setOp(a, '');
  clearErrors();
  updateFilterCount();
  navigate('#/');
  form.elements.query.focus();
});

// ---------------------------------------------------------------------- views

const results = $('results');
const start = $('start');
const summary = $('summary');
const lists = $('result-lists');
const pager = $('pager');
const notice = $('notice');
const announce = $('announce');
const productView = $('product');
const narrow = window.matchMedia('(max-width: 760px)');

let lastSearch = '#/';
// revealResults scrolls the results into view after a search from the form.
let revealResults = false;
const scrollBySearch = new Map();

function setView(view) {
  show(form, view !== 'product');
  show(results, view !== 'product');
  show(productView, view === 'product');
  show(start, view === 'home');
  if (view !== 'search') {
    show(summary, false);
    lists.replaceChildren();
    show(pager, false);
  }
}

function say(text) {
  // Clearing first makes screen readers announce a repeated message.
  announce.textContent = '';
  window.setTimeout(() => {
    announce.textContent = text;
  }, 50);
}

function showNotice(kind, ...children) {
  notice.className = `notice ${kind}`;
  notice.setAttribute('role', 'alert');
  notice.replaceChildren(...children);
  show(notice, true);
}

function hideNotice() {
  notice.replaceChildren();
  show(notice, false);
}

// rateLimitNotice says when the hourly budget resets.
function rateLimitNotice(err) {
  const reset = err.resetAt ? new Date(err.resetAt) : null;
  const limit = err.limit ? `${err.limit} requests` : 'a limited number of requests';
  const parts = [
    el('strong', {}, 'Request limit reached. '),
    `Each address may make ${limit} per hour to this service (explorer, API and MCP together). `,
  ];
  if (reset && !Number.isNaN(reset.getTime())) {
    const mins = Math.max(1, Math.ceil((reset.getTime() - Date.now()) / 60000));
    parts.push('You can search again at ', el('time', { datetime: err.resetAt, id: 'reset-time' }, clock.format(reset)), ` (in about ${plural(mins, 'minute', 'minutes')}).`);
  } else {
    parts.push('Try again later.');
  }
  return parts;
}

// failureContent explains a failed request: when the hourly budget resets,
// or the API's message.
function failureContent(err, what) {
  if (err instanceof RateLimited) return { kind: 'warning', nodes: rateLimitNotice(err) };
  const message = err instanceof APIError ? err.message : 'Check your connection and try again.';
  return { kind: 'error', nodes: [el('strong', {}, `The ${what} could not be loaded. `), message] };
}

function failure(err, what) {
  const { kind, nodes } = failureContent(err, what);
  showNotice(kind, ...nodes);
  say(notice.textContent);
}

// --------------------------------------------------------------------- search

function isMatch(p, names) {
  return names.every((n) => p.constraint_status && p.constraint_status[n] === 'matched');
}

let searchSeq = 0;

async function runSearch(params, focusResults) {
  const seq = ++searchSeq;
  const reveal = revealResults;
  revealResults = false;
  setView('search');
  hideNotice();
  clearErrors();
  fillForm(params);
  const query = new URLSearchParams(params);
  query.set('lite', 'true');
  query.set('limit', String(PAGE_SIZE));
  const key = `${API_SEARCH}?${query}`;
  results.setAttribute('aria-busy', 'true');
  results.classList.add('loading');
  try {
    const data = await cachedJSON(key);
    renderResults(data, params);
    if (focusResults) results.focus({ preventScroll: false });
    const y = scrollBySearch.get(location.hash);
    // A new page of results starts at its top; going back restores the
    // place the reader left.
    if ((reveal || y === undefined) && results.getBoundingClientRect().top < 0) results.scrollIntoView({ block: 'start' });
    else if (y !== undefined && !reveal) window.scrollTo(0, y);
  } catch (err) {
    if (err.name === 'AbortError') return;
    show(summary, false);
    lists.replaceChildren();
    show(pager, false);
    if (err instanceof APIError && err.status === 400) {
      showFormError(err.message);
      showNotice('error', el('strong', {}, 'The search could not run. '), err.message, ' Change the search in the form and try again.');
      notice.removeAttribute('role'); // the form's message is the alert
      formError.scrollIntoView({ block: 'nearest' });
      say(`The search could not run: ${err.message}`);
    } else {
      failure(err, 'results');
    }
  } finally {
    if (seq === searchSeq) {
      results.removeAttribute('aria-busy');
      results.classList.remove('loading');
    }
  }
}

function renderResults(data, params) {
  const offset = Number(params.get('offset')) || 0;
  const names = constraintNames(data.constraints);
  const constrained = names.length > 0;
  const products = data.products || [];
  const available = constrained ? data.total + (data.unverified_total || 0) : data.total;

  const sentences = [];
  const lines = [];
  if (constrained) {
    const reqs = names.map((n) => `${label(n)} ${describeBound(n, data.constraints[n])}`);
    lines.push(el('p', { class: 'applied' }, el('span', { class: 'applied-label' }, 'Requirements applied: '), reqs.join('; '), '.'));
    const facts = el('ul', { class: 'facts' });
    const matchedText = data.total === 0
      ? 'No product is known to meet every requirement.'
      : `${plural(data.total, 'product meets', 'products meet')} every requirement: a retailer's title states a value that meets it.`;
    sentences.push(matchedText);
    facts.append(el('li', { class: data.total === 0 ? 'fact none' : 'fact matched', 'data-total': 'matched' }, matchedText));
    if (data.unverified_total > 0) {
      const more = data.total > 0 ? 'more ' : '';
      const t = `${plural(data.unverified_total, `${more}product is`, `${more}products are`)} unverified: no retailer states the spec, or retailers disagree, so ${data.unverified_total === 1 ? 'it' : 'they'} might or might not meet it. They are listed after the matches.`;
      sentences.push(`${plural(data.unverified_total, 'product is', 'products are')} unverified.`);
      facts.append(el('li', { class: 'fact unverified', 'data-total': 'unverified' }, t));
    }
    if (data.excluded_by_constraints > 0) {
      const t = `${plural(data.excluded_by_constraints, 'product was', 'products were')} left out because the specs ${data.excluded_by_constraints === 1 ? 'its retailers state fail' : 'their retailers state fail'} a requirement.`;
      sentences.push(t);
      facts.append(el('li', { class: 'fact excluded', 'data-total': 'excluded' }, t));
    }
    if (data.candidates_truncated) {
      const t = 'Only the first 2,000 products in this order were checked against the requirements. Add a brand, a category or more search words to check them all; if the search is already narrow, results may be incomplete.';
      sentences.push('Only the first 2,000 products were checked.');
      facts.append(el('li', { class: 'fact truncated', 'data-total': 'truncated' }, t));
    }
    lines.push(facts);
  } else {
    const t = data.total === 0 ? 'No products found.' : `${plural(data.total, 'product matches', 'products match')} your search.`;
    sentences.push(t);
    lines.push(el('p', { class: 'lead', 'data-total': 'matched' }, t));
  }
  if (products.length > 0) {
    const range = `Showing ${count.format(offset + 1)}–${count.format(offset + products.length)} of ${count.format(available)}.`;
    lines.push(el('p', { class: 'range' }, range));
  }
  summary.replaceChildren(...lines);
  // Without requirements, the empty state below says it all.
  show(summary, products.length > 0 || constrained);

  if (products.length === 0) {
    lists.replaceChildren(emptyState(params, data, offset));
    show(pager, false);
    say(sentences.join(' '));
    return;
  }
  const matched = constrained ? products.filter((p) => isMatch(p, names)) : products;
  const unverified = constrained ? products.filter((p) => !isMatch(p, names)) : [];
  const groups = [];
  if (matched.length > 0) {
    groups.push(resultGroup(constrained ? 'Meet every requirement' : null, 'matched', matched, names));
  }
  if (unverified.length > 0) {
    groups.push(resultGroup('Unverified: might meet the requirements', 'unverified', unverified, names));
  }
  lists.replaceChildren(...groups);
  renderPager(params, offset, products.length, available);
  say(`${sentences.join(' ')} Showing ${products.length} on this page.`);
}

function resultGroup(title, kind, products, names) {
  const section = el('section', { class: `group ${kind}`, 'data-group': kind });
  if (title) {
    const id = `group-${kind}`;
    section.setAttribute('aria-labelledby', id);
    section.append(el('h2', { id, class: 'group-title' }, title, el('span', { class: 'group-count' }, ` (${products.length} on this page)`)));
  }
  section.append(el('ol', { class: 'result-list' }, products.map((p) => resultItem(p, names))));
  return section;
}

function resultItem(p, names) {
  const href = `#/product/${encodeURIComponent(p.id)}`;
  const offers = p.offer_count || 1;
  const meta = [p.brand, offers > 1 ? `${offers} retailers` : '1 retailer'].filter(Boolean).join(' · ');
  const body = el('div', { class: 'result-body' },
    el('h3', { class: 'result-title' }, el('a', { href }, p.title)),
    el('p', { class: 'result-meta' }, meta));
  if (names.length > 0) body.append(checkList(p, names));
  const buy = el('div', { class: 'result-buy' },
    el('p', { class: 'price', 'data-price': p.price }, gbp.format(p.price)),
    el('p', { class: `stock ${p.availability}` }, AVAILABILITY[p.availability] || p.availability),
    el('p', { class: 'offer-count' }, offers > 1 ? `Lowest of ${offers} offers` : 'One offer'));
  return el('li', { class: 'result', 'data-id': p.id }, thumbnail(p.image_url, 'small'), body, buy);
}

// checkList shows each requirement's status for one product: matched with
// the stated value, or unverified with the reason.
function checkList(p, names) {
  const ul = el('ul', { class: 'checks', 'aria-label': 'Requirements' });
  for (const n of names) {
    const status = (p.constraint_status && p.constraint_status[n]) || 'unverified';
    const attr = p.attributes && p.attributes[n];
    let detail;
    let reason = '';
    if (status === 'matched') {
      detail = statedValues(attr).map((v) => formatValue(n, v)).join(' or ');
    } else if (attr && attr.status === 'conflicting') {
      reason = 'conflicting';
      detail = `retailers disagree (${statedValues(attr).map((v) => formatValue(n, v)).join(' vs ')})`;
    } else if (!attr) {
      reason = 'absent';
      detail = 'not stated';
    } else {
      reason = 'unconfirmed';
      detail = `not confirmed (${statedValues(attr).map((v) => formatValue(n, v)).join(', ')})`;
    }
    ul.append(el('li', { class: `check ${status}`, 'data-constraint': n, 'data-status': status, 'data-reason': reason || null },
      el('span', { class: 'check-icon', 'aria-hidden': 'true' }, status === 'matched' ? '✓' : '?'),
      el('span', { class: 'check-name' }, label(n)),
      el('span', { class: 'check-detail' }, detail ? ` ${detail}` : ''),
      el('span', { class: 'check-status' }, status === 'matched' ? 'matched' : 'unverified')));
  }
  return ul;
}

// emptyState suggests ways to broaden a search that found nothing.
function emptyState(params, data, offset) {
  const box = el('div', { class: 'empty', 'data-empty': '' });
  if (offset > 0) {
    box.append(el('h2', {}, 'No more results'), el('p', {}, 'This page is past the last result.'));
    const first = new URLSearchParams(params);
    first.delete('offset');
    box.append(el('p', {}, el('a', { href: `#/search?${first}`, class: 'button' }, 'Back to the first page')));
    return box;
  }
  box.append(el('h2', {}, 'No products found'), el('p', {}, 'Try broadening the search:'));
  const ul = el('ul', { class: 'broaden' });
  const option = (text, change) => {
    const next = new URLSearchParams(params);
    change(next);
    next.delete('offset');
    ul.append(el('li', {}, el('a', { href: `#/search?${next}` }, text)));
  };
  const q = (params.get('query') || '').trim();
  if (q) option(q.split(/\s+/).length > 1 ? 'Use fewer search words (clear them)' : `Remove the search word “${q}”`, (n) => n.delete('query'));
  if (params.get('brand')) option(`Remove the brand “${params.get('brand')}”`, (n) => n.delete('brand'));
  if (params.get('min_price') || params.get('max_price')) option('Remove the price range', (n) => { n.delete('min_price'); n.delete('max_price'); });
  const names = constraintNames(data.constraints);
  let cons = {};
  try {
    cons = JSON.parse(params.get('constraints') || '{}') || {};
  } catch {
    cons = {};
  }
  for (const n of names) {
    if (!cons[n]) continue;
    option(`Drop the requirement ${label(n)} ${describeBound(n, cons[n])}`, (next) => {
      const rest = { ...cons };
      delete rest[n];
      if (Object.keys(rest).length > 0) next.set('constraints', JSON.stringify(rest));
      else next.delete('constraints');
    });
  }
  if (params.get('category') && !params.get('constraints')) option(`Search all categories, not just ${params.get('category')}`, (n) => n.delete('category'));
  if (ul.childElementCount === 0) ul.append(el('li', {}, 'Check the spelling, or try a model line such as “ThinkPad” or “Galaxy”.'));
  box.append(ul);
  return box;
}

function renderPager(params, offset, shown, available) {
  pager.replaceChildren();
  const prevOffset = Math.max(0, offset - PAGE_SIZE);
  const hasPrev = offset > 0;
  const hasNext = offset + shown < available && offset + PAGE_SIZE <= 10000;
  if (!hasPrev && !hasNext) {
    show(pager, false);
    return;
  }
  const link = (text, off, rel) => {
    const next = new URLSearchParams(params);
    if (off > 0) next.set('offset', String(off));
    else next.delete('offset');
    return el('a', { href: `#/search?${next}`, class: 'button', rel }, text);
  };
  const page = Math.floor(offset / PAGE_SIZE) + 1;
  const pages = Math.max(page, Math.ceil(available / PAGE_SIZE));
  pager.append(
    hasPrev ? link('← Previous', prevOffset, 'prev') : el('span', { class: 'button disabled', 'aria-hidden': 'true' }, '← Previous'),
    el('span', { class: 'page-of' }, `Page ${count.format(page)} of ${count.format(pages)}`),
    hasNext ? link('Next →', offset + shown, 'next') : el('span', { class: 'button disabled', 'aria-hidden': 'true' }, 'Next →'));
  show(pager, true);
}

// -------------------------------------------------------------------- product

async function runProduct(id) {
  setView('product');
  hideNotice();
  const back = el('p', { class: 'back' }, el('a', { href: lastSearch }, lastSearch === '#/' ? '← New search' : '← Back to results'));
  productView.replaceChildren(back, el('p', { class: 'loading-text' }, 'Loading the product…'));
  productView.setAttribute('aria-busy', 'true');
  window.scrollTo(0, 0);
  try {
    const p = await cachedJSON(API_PRODUCT + encodeURIComponent(id));
    productView.replaceChildren(back, ...renderProduct(p));
    document.title = `${p.title} · Product Search Explorer`;
    const h1 = productView.querySelector('h1');
    if (h1) h1.focus();
    say(`${p.title}: ${gbp.format(p.price)}, ${plural(p.offer_count || (p.offers || []).length, 'offer', 'offers')}.`);
  } catch (err) {
    if (err.name === 'AbortError') return;
    if (err instanceof APIError && err.status === 404) {
      productView.replaceChildren(back, el('h1', { tabindex: '-1' }, 'Product not found'), el('p', {}, err.message));
      productView.querySelector('h1').focus();
      say('Product not found.');
    } else {
      const { kind, nodes } = failureContent(err, 'product');
      const box = el('div', { class: `notice ${kind}`, role: 'alert' }, ...nodes);
      productView.replaceChildren(back, box);
      say(box.textContent);
    }
  } finally {
    productView.removeAttribute('aria-busy');
  }
}

// titlesBy maps each retailer to the titles of its offers.
function titlesBy(offers) {
  const m = new Map();
  for (const o of offers) {
    if (!m.has(o.source)) m.set(o.source, []);
    if (!m.get(o.source).includes(o.title)) m.get(o.source).push(o.title);
  }
  return m;
}

function renderProduct(p) {
  const offers = p.offers || [];
  const attrs = p.attributes || {};
  const cheapest = offers[0];
  const conflicting = ATTRS.filter((a) => attrs[a.name] && attrs[a.name].status === 'conflicting').map((a) => a.label);

  const eyebrow = [p.category, p.brand, p.product_type === 'accessory' ? 'Accessory' : null].filter(Boolean).join(' · ');
  const priceLine = el('p', { class: 'price-line' },
    el('span', { class: 'price big', 'data-price': p.price }, gbp.format(p.price)),
    el('span', { class: 'price-note' }, cheapest ? ` lowest price, at ${cheapest.source}` : ' lowest price'));
  const stockLine = el('p', { class: 'stock-line' },
    el('span', { class: `stock ${p.availability}` }, AVAILABILITY[p.availability] || p.availability),
    p.stock !== undefined ? ` · ${plural(p.stock, 'unit', 'units')} in stock` : '',
    p.delivery_time ? ` · ${p.delivery_time}` : '');
  const head = el('header', { class: 'product-head' },
    thumbnail(p.image_url, 'large'),
    el('div', { class: 'product-summary' },
      el('p', { class: 'eyebrow' }, eyebrow),
      el('h1', { tabindex: '-1' }, p.title),
      priceLine, stockLine,
      safeURL(p.purchase_url) ? el('p', { class: 'buy-line' }, externalLink(p.purchase_url, cheapest ? `Buy at ${cheapest.source}` : 'Buy',
        `Buy at ${cheapest ? cheapest.source : 'the retailer'} (opens in a new tab)`, 'button primary')) : null));

  const offersSection = el('section', { class: 'section offers-section', 'aria-labelledby': 'offers-title' },
    el('h2', { id: 'offers-title' }, offers.length === 1 ? 'Offer from 1 retailer' : `Offers from ${offers.length} retailers`));
  if (conflicting.length > 0) {
    offersSection.append(el('p', { class: 'callout warning' },
      el('strong', {}, 'Retailers disagree on ', conflicting.join(' and '), '. '),
      'The listings may be different configurations: check each title before comparing prices.'));
  }
  offersSection.append(offersTable(offers));

  const attrSection = el('section', { class: 'section attrs-section', 'aria-labelledby': 'attrs-title' },
    el('h2', { id: 'attrs-title' }, 'Specs from retailer titles'),
    el('p', { class: 'hint' }, 'Each spec shows the retailers whose listing titles state it, with the titles themselves.'));
  const byRetailer = titlesBy(offers);
  const stated = ATTRS.filter((a) => attrs[a.name]);
  const missing = ATTRS.filter((a) => !attrs[a.name]);
  if (stated.length > 0) {
    attrSection.append(el('div', { class: 'attr-list' }, stated.map((a) => attrCard(a, attrs[a.name], byRetailer))));
  }
  attrSection.append(el('p', { class: 'not-stated', 'data-not-stated': missing.map((a) => a.name).join(' ') },
    missing.length === 0 ? 'Every spec is stated by at least one retailer.'
      : `Not stated by any retailer: ${missing.map((a) => a.label).join(', ')}.`));

  const specs = p.specs || {};
  const details = el('section', { class: 'section details-section', 'aria-labelledby': 'details-title' },
    el('h2', { id: 'details-title' }, 'Retailer description'));
  if (specs.description) {
    details.append(el('p', { class: 'description' }, specs.description),
      el('p', { class: 'hint' }, "The retailer's own words. It may describe another configuration or a maximum; the specs above come from titles only."));
  } else {
    details.append(el('p', { class: 'hint' }, 'No description from the retailer.'));
  }
  const dl = el('dl', { class: 'details' });
  const row = (k, v) => { if (v) dl.append(el('div', {}, el('dt', {}, k), el('dd', {}, v))); };
  row('Model number', specs.model_number);
  row('Dimensions', specs.dimensions);
  row('Category', p.category);
  row('Type', p.product_type === 'accessory' ? 'Accessory' : 'Product');
  row('Product id', p.id);
  if (p.provenance) {
    const d = new Date(p.provenance.last_updated);
    row('Price source', `${p.provenance.source}${Number.isNaN(d.getTime()) ? '' : `, updated ${dateTime.format(d)}`}`);
  }
  details.append(dl);
  return [head, offersSection, attrSection, details];
}

function offersTable(offers) {
  const table = el('table', { class: 'offers' },
    el('caption', { class: 'visually-hidden' }, 'Retailer offers, cheapest first'),
    el('thead', {}, el('tr', {},
      el('th', { scope: 'col' }, 'Retailer'),
      el('th', { scope: 'col' }, 'Listing title'),
      el('th', { scope: 'col', class: 'num' }, 'Price'),
      el('th', { scope: 'col' }, 'Stock'),
      el('th', { scope: 'col' }, 'Delivery'),
      el('th', { scope: 'col' }, el('span', { class: 'visually-hidden' }, 'Link')))));
  const tbody = el('tbody');
  offers.forEach((o, i) => {
    const stock = [AVAILABILITY[o.availability] || o.availability || 'Unknown'];
    if (o.stock !== undefined) stock.push(`(${count.format(o.stock)})`);
    tbody.append(el('tr', { 'data-offer-id': o.id, class: i === 0 ? 'cheapest' : null },
      el('th', { scope: 'row', 'data-label': 'Retailer', class: 'retailer' }, o.source, i === 0 && offers.length > 1 ? el('span', { class: 'tag' }, 'Lowest') : null),
      el('td', { 'data-label': 'Listing', class: 'listing' }, o.title),
      el('td', { 'data-label': 'Price', class: 'num price', 'data-price': o.price }, gbp.format(o.price)),
      el('td', { 'data-label': 'Stock', class: 'stock-cell' }, el('span', { class: `stock ${o.availability}` }, stock.join(' '))),
      el('td', { 'data-label': 'Delivery' }, o.delivery_time || '—'),
      el('td', { class: 'link' }, externalLink(o.purchase_url, 'View offer', `View the offer at ${o.source} (opens in a new tab)`, 'offer-link'))));
  });
  table.append(tbody);
  return el('div', { class: 'table-wrap' }, table);
}

// attrCard shows one attribute: its value(s), status, and the retailers and
// titles behind each value.
function attrCard(a, attr, byRetailer) {
  const groups = attr.status === 'conflicting'
    ? (attr.values || []).map((v) => ({ value: v.value, sources: v.sources || [] }))
    : [{ value: attr.value, sources: attr.sources || [] }];
  const card = el('div', { class: `attr ${attr.status}`, 'data-attr': a.name, 'data-status': attr.status },
    el('div', { class: 'attr-head' },
      el('h3', {}, a.label),
      el('span', { class: `badge ${attr.status}` }, STATUS_TEXT[attr.status] || attr.status)));
  const ul = el('ul', { class: 'attr-values' });
  for (const g of groups) {
    const sources = el('ul', { class: 'sources' });
    for (const s of g.sources) {
      const titles = byRetailer.get(s.retailer) || [];
      sources.append(el('li', { 'data-retailer': s.retailer },
        el('span', { class: 'source-name' }, s.retailer),
        titles.length > 0 ? el('span', { class: 'source-title' }, titles.map((t) => `“${t}”`).join(' / ')) : null));
    }
    ul.append(el('li', { 'data-value': g.value },
      el('span', { class: 'attr-value' }, formatValue(a.name, g.value)),
      el('span', { class: 'stated-by' }, g.sources.length === 1 ? ' stated by 1 retailer' : ` stated by ${g.sources.length} retailers`),
      sources));
  }
  card.append(ul);
  return card;
}

// --------------------------------------------------------------------- router

function navigate(hash) {
  if (location.hash === hash || (hash === '#/' && location.hash === '')) route(true);
  else location.hash = hash;
}

function route(focusResults = false) {
  const h = location.hash.replace(/^#/, '');
  if (h.startsWith('/product/')) {
    let id = h.slice('/product/'.length);
    try {
      id = decodeURIComponent(id);
    } catch {
      // keep it as it is
    }
    runProduct(id);
    return;
  }
  document.title = 'Product Search Explorer';
  if (h.startsWith('/search')) {
    lastSearch = location.hash;
    const i = h.indexOf('?');
    runSearch(new URLSearchParams(i >= 0 ? h.slice(i + 1) : ''), focusResults);
    return;
  }
  lastSearch = '#/';
  hideNotice();
  clearErrors();
  fillForm(new URLSearchParams());
  setView('home');
}

let previousHash = location.hash;
window.addEventListener('hashchange', () => {
  scrollBySearch.set(previousHash, window.scrollY);
  const fromSearch = previousHash.startsWith('#/search');
  previousHash = location.hash;
  // Paging moves the focus to the results; a new search leaves it in the form.
  route(fromSearch && document.activeElement && pager.contains(document.activeElement));
});

// Filters start folded on narrow screens so that results are in view.
if (narrow.matches) filters.open = false;

// The catalog size and sync time in the header (health is not rate limited).
fetch(API_HEALTH, { headers: { Accept: 'application/json' } })
  .then((r) => (r.ok ? r.json() : null))
  .then((h) => {
    if (!h) return;
    const status = $('catalog-status');
    const d = new Date(h.last_update);
    status.replaceChildren(`${count.format(h.items)} products`, Number.isNaN(d.getTime()) ? '' : ` · updated ${dateTime.format(d)}`);
  })
  .catch(() => {});

route();
